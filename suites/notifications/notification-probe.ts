import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CheckContext,
  type Exchange,
  META_LOG_LEVEL,
  LATEST_REVISION,
  type Outcome,
  pending,
  type Pending,
  resultOf,
} from '../kit/index.js';
import { validCalls } from '../tool-calls/tool-results.js';

/** Digits in a string: a server that turns it into the number 9017 refers to a token nobody sent. */
export const PROBE_PROGRESS_TOKEN = '9017';
/** Messages below it (debug, info, notice) are outside what the request asked for. */
export const PROBE_LOG_LEVEL = 'warning';
/**
 * Over one channel (stdio, HTTP+SSE), how long to keep listening after the answer for messages that follow it there.
 */
const TRAILING_MS = 50;

export type NotificationProbe = { exchange: Exchange; token: string; logLevel?: string } | { skipped: string };

/**
 * One tool call, repeated from the audit's valid calls (a tool that answered with a result) with a progressToken and,
 * on 2026-07-28, a log level in `_meta`: the request the progress and logging checks judge the server's notifications
 * by. Done once, in the final phase, so that what follows its answer on stdio is not mixed with other checks' requests.
 * Settles once its trailing window has closed.
 */
export function notificationProbe(ctx: CheckContext): Promise<NotificationProbe> {
  return ctx.memo('notification-probe', async (): Promise<NotificationProbe> => {
    const probe = await probeAnswered(ctx);
    if (ctx.oneChannel && 'exchange' in probe) await sleep(TRAILING_MS);
    return probe;
  });
}

/** The probe's call, sent and answered; its trailing window may still be open. */
function probeAnswered(ctx: CheckContext): Promise<NotificationProbe> {
  return ctx.memo('notification-probe-call', async (): Promise<NotificationProbe> => {
    const calls = (await validCalls(ctx)).calls;
    const answered = calls.find((c) => resultOf(c.exchange.response) !== undefined && !c.exchange.failure);
    if (!answered)
      return {
        skipped:
          `no tool call of the audit was answered with a result to repeat with a progressToken (` +
          `${ctx.callPolicy})`,
      };
    const logLevel = ctx.revision === LATEST_REVISION ? PROBE_LOG_LEVEL : undefined;
    const extraMeta = { progressToken: PROBE_PROGRESS_TOKEN, ...(logLevel ? { [META_LOG_LEVEL]: logLevel } : {}) };
    const exchange = await ctx.callTool(String(answered.tool.tool.name), answered.args, { extraMeta });
    return { exchange, token: PROBE_PROGRESS_TOKEN, ...(logLevel ? { logLevel } : {}) };
  });
}

/**
 * A check that judges the probe: sends it in its turn, and judges once the probe's trailing window has closed. The
 * final checks after it only read what was recorded (none sends on the audit's connection), so the window does not
 * hold them up.
 */
export async function afterProbeWindow(
  ctx: CheckContext,
  judge: () => Promise<Outcome[]> | Outcome[],
): Promise<Pending> {
  await probeAnswered(ctx);
  return pending(notificationProbe(ctx).then(judge));
}
