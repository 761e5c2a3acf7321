import { setTimeout as delay } from 'node:timers/promises';
import {
  type CheckContext,
  errorOf,
  type Exchange,
  isObject,
  type JsonRpcId,
  type ListenStream,
  type McpClient,
  resultOf,
  walkTools,
} from '../kit/index.js';
import {
  ACKNOWLEDGED,
  LIST_CHANGED,
  isMethod,
  listenFailure,
  listenId,
  listenPrecondition,
  sameTag,
  tagOf,
} from './subscription-messages.js';

const MAX_WAIT_MS = 3_000;
/** How long a subscription that should stay silent is still watched once the subscriber has been notified. */
const BYSTANDER_GRACE_MS = 200;

export interface ObservedStream {
  id: JsonRpcId;
  exchange: Exchange;
}

export interface ToolSetDiff {
  changed: boolean;
  added: string[];
  removed: string[];
  summary: string;
}

export interface TriggerRun {
  skip?: string;
  waitedMs?: number;
  /** Opened with {toolsListChanged: true}. */
  subscriber?: ObservedStream;
  /** Opened with {promptsListChanged: true}: must hear nothing about tools. */
  bystander?: ObservedStream;
  streams?: ObservedStream[];
  change?: { call: Exchange; tool: string; diff: ToolSetDiff };
}

/**
 * Opens two subscriptions on a fresh connection, calls the --list-changed-trigger tool, watches both, lists the tools
 * again, then calls the trigger once more to undo the change. Done once per audit, shared by the list_changed checks.
 */
export function triggerRun(ctx: CheckContext): Promise<TriggerRun> {
  return ctx.memo('subscriptions.trigger-run', async () => {
    const start = await startTriggerRun(ctx);
    if ('skip' in start) return start;
    const { trigger, client, waitedMs, before } = start;

    const subscriberStream = await client.listen({ toolsListChanged: true });
    const bystanderStream = await client.listen({ promptsListChanged: true });
    if (!subscriberStream || !bystanderStream) return { skip: 'this target cannot hold a request open' };
    const acked = await Promise.all(
      [subscriberStream, bystanderStream].map((s) => s.waitFor(ackFor(listenId(s)), waitedMs)),
    );
    if (!acked.every(Boolean)) {
      await closeAll([subscriberStream, bystanderStream]);
      const refusal = listenFailure(subscriberStream.exchange) ?? listenFailure(bystanderStream.exchange);
      return {
        skip: `the subscriptions were not acknowledged${refusal ? ` (${refusal})` : ''} (subs.ack.first reports it)`,
      };
    }

    const call = await callTrigger(ctx, client, trigger);
    const failed = callFailure(call);
    if (failed) {
      await closeAll([subscriberStream, bystanderStream]);
      return { skip: `the --list-changed-trigger call of ${trigger.name} failed: ${failed}` };
    }
    await subscriberStream.waitFor(listChangedFor(listenId(subscriberStream)), waitedMs);
    await bystanderStream.waitFor(listChangedFor(listenId(bystanderStream)), BYSTANDER_GRACE_MS);
    const after = await namesOf(client);
    const [subscriber, bystander] = await closeAll([subscriberStream, bystanderStream]);
    await callTrigger(ctx, client, trigger);

    const diff = diffAfter(before, after);
    return {
      waitedMs,
      subscriber,
      bystander,
      streams: [subscriber!, bystander!],
      change: { call, tool: trigger.name, diff },
    };
  });
}

/**
 * What the session of the `initialize` wire saw of a trigger call: no subscription there, the session itself is told.
 */
export type SessionTriggerRun =
  | { skip: string }
  | {
      waitedMs: number;
      change: { call: Exchange; tool: string; diff: ToolSetDiff };
      /** The first notifications/tools/list_changed the session received after the trigger call was sent. */
      notified?: { message: unknown; on?: Exchange };
      /** The session's own tools/list exchanges, before and after the trigger, for the evidence. */
      listings: Exchange[];
    };

/** How often the session's strays are read while waiting for the notification. */
const POLL_MS = 20;

/**
 * The `initialize` wire's counterpart of triggerRun: on a fresh session (a new process over stdio), calls the
 * --list-changed-trigger tool and waits for notifications/tools/list_changed on that session (on the call's own answer
 * stream, or after it: over stdio on the one channel, over HTTP on the GET stream), lists the tools again, then calls
 * the trigger once more to undo the change.
 */
export function sessionTriggerRun(ctx: CheckContext): Promise<SessionTriggerRun> {
  return ctx.memo('subscriptions.session-trigger-run', async () => {
    const start = await startTriggerRun(ctx);
    if ('skip' in start) return start;
    const { trigger, client, waitedMs, first, before } = start;
    const call = await callTrigger(ctx, client, trigger);
    const failed = callFailure(call);
    if (failed) return { skip: `the --list-changed-trigger call of ${trigger.name} failed: ${failed}` };
    const notified = await sessionListChanged(client, call, waitedMs);
    const after = await namesOf(client);
    const listings = client.exchanges
      .slice(first)
      .filter((e) => e !== call && isObject(e.request) && e.request.method === 'tools/list');
    await callTrigger(ctx, client, trigger);
    const diff = diffAfter(before, after);
    return { waitedMs, change: { call, tool: trigger.name, diff }, listings, ...(notified ? { notified } : {}) };
  });
}

/**
 * What triggerRun and sessionTriggerRun start from: the trigger, a fresh connection where the target allows one, how
 * long to wait, where that connection's exchanges stood and the tool names before the trigger; or why there is no run.
 */
async function startTriggerRun(ctx: CheckContext): Promise<
  | { skip: string }
  | {
      trigger: { name: string; arguments: Record<string, unknown> };
      client: McpClient;
      waitedMs: number;
      first: number;
      before: string[];
    }
> {
  const trigger = ctx.options.listChangedTrigger;
  if (!trigger) return { skip: 'no --list-changed-trigger given' };
  const why = await listenPrecondition(ctx);
  if (why) return { skip: why };
  const client = ctx.canOpenConnections ? await ctx.anotherConnection() : ctx.client;
  const waitedMs = Math.min(ctx.options.timeoutMs, MAX_WAIT_MS);
  const first = client.exchanges.length;
  const before = await namesOf(client);
  if (!before) return { skip: 'tools/list failed before the trigger, so a change could not be seen' };
  return { trigger, client, waitedMs, first, before };
}

/** The change the trigger made: the names after it against those before, or why there is none to compare. */
function diffAfter(before: readonly string[], after: readonly string[] | undefined): ToolSetDiff {
  return after
    ? diffNames(before, after)
    : { changed: false, added: [], removed: [], summary: 'tools/list failed after the trigger' };
}

/** Waits up to `waitedMs` for notifications/tools/list_changed on the call's answer or, later, on the session. */
async function sessionListChanged(
  client: McpClient,
  call: Exchange,
  waitedMs: number,
): Promise<{ message: unknown; on?: Exchange } | undefined> {
  const end = Date.now() + waitedMs;
  for (;;) {
    const onCall = call.notifications.find((m) => isMethod(m, LIST_CHANGED));
    if (onCall) return { message: onCall, on: call };
    const later = client.transport
      .strays()
      .find(
        (s) => s.kind === 'notification' && isMethod(s.data, LIST_CHANGED) && (s.seq === undefined || s.seq > call.seq),
      );
    if (later) return { message: later.data };
    if (Date.now() >= end) return undefined;
    await delay(POLL_MS);
  }
}

async function callTrigger(
  ctx: CheckContext,
  client: McpClient,
  trigger: { name: string; arguments: Record<string, unknown> },
): Promise<Exchange> {
  if (client !== ctx.client)
    ctx.client.toolsCalled.set(trigger.name, (ctx.client.toolsCalled.get(trigger.name) ?? 0) + 1);
  return client.request('tools/call', { name: trigger.name, arguments: trigger.arguments }, { probe: true });
}

function callFailure(call: Exchange): string | undefined {
  const error = errorOf(call.response);
  if (error) return `error ${String(error.code)} (${String(error.message)})`;
  const result = resultOf(call.response);
  if (!result) return call.failure?.message ?? 'no result';
  if (result.isError === true) return 'the result has isError: true';
  return undefined;
}

async function namesOf(client: McpClient): Promise<string[] | undefined> {
  const walk = await walkTools(client);
  if (walk.stop.kind !== 'complete') return undefined;
  return walk.tools.map((t) => (isObject(t) && typeof t.name === 'string' ? t.name : '')).filter(Boolean);
}

function diffNames(before: readonly string[], after: readonly string[]): ToolSetDiff {
  const added = after.filter((n) => !before.includes(n));
  const removed = before.filter((n) => !after.includes(n));
  const changed = added.length > 0 || removed.length > 0;
  const parts = [
    added.length ? `added ${added.join(', ')}` : '',
    removed.length ? `removed ${removed.join(', ')}` : '',
  ].filter(Boolean);
  return { changed, added, removed, summary: changed ? parts.join('; ') : 'no tool added or removed' };
}

function ackFor(id: JsonRpcId) {
  return (messages: readonly unknown[]) =>
    messages.some((m) => isMethod(m, ACKNOWLEDGED) && sameTag(tagOf(m), id, 'loose'));
}

function listChangedFor(id: JsonRpcId) {
  return (messages: readonly unknown[]) =>
    messages.some((m) => isMethod(m, LIST_CHANGED) && sameTag(tagOf(m), id, 'loose'));
}

async function closeAll(streams: ListenStream[]): Promise<ObservedStream[]> {
  return Promise.all(streams.map(async (s) => ({ id: listenId(s), exchange: await s.close() })));
}
