import { isObject } from '../../core/jsonrpc.js';
import { revisionsOf, type CheckResult, type Outcome } from '../../model/check.js';
import type { ClientObservations } from '../../model/client-observation.js';
import type { RunReport } from '../../model/report.js';
import { META_CLIENT_INFO } from '../../core/meta-keys.js';
import { ClientCheckContext, type ClientCheckDefinition } from './check.js';
import { internalErrorOutcome, summarize, toResult } from '../../runner/runner.js';
import { concludeReport, shownResult } from '../../engine/audit.js';
import type { ClientAuditConfig } from '../../engine/config.js';
import type { AuditHandler } from '../../engine/events.js';
import { scrubSecrets } from '../../engine/scrub.js';
import { targetStderr } from '../../engine/target-stderr.js';
import { abortReason, observe } from './observe.js';

/**
 * One client audit: starts the scripted server (and the canary its schemas name), runs the client command until it
 * exits or the budget runs out, then judges what was seen with the client checks and ends with the report. Nothing
 * the client does makes this throw; a client that cannot be audited is a report with `aborted` set (exit 3).
 */
export async function runClientAudit(
  config: ClientAuditConfig,
  checks: readonly ClientCheckDefinition[],
  handle: AuditHandler,
): Promise<RunReport> {
  await handle({ type: 'run-started', checks: checks.length });
  const observed = await observe(config);
  const aborted = abortReason(observed);
  const ctx = new ClientCheckContext(observed);
  const results: CheckResult[] = [];
  for (const check of checks) {
    const started = performance.now();
    void handle({ type: 'check-started', id: check.id });
    const outcomes = judge(check, ctx, config, aborted);
    const elapsed = performance.now() - started;
    for (const outcome of outcomes) {
      const raw = toResult(check, outcome, elapsed / outcomes.length, observed.wire);
      const shown = shownResult(raw, config, observed.wire);
      results.push(shown);
      void handle({ type: 'result', result: shown });
    }
  }
  const report = reportOf(config, observed, ctx, results, aborted);
  await handle({ type: 'run-finished', report });
  return report;
}

function judge(
  check: ClientCheckDefinition,
  ctx: ClientCheckContext,
  config: ClientAuditConfig,
  aborted: string | undefined,
): Outcome[] {
  if (check.transport && check.transport !== config.transport) {
    return [
      {
        status: 'skip',
        message:
          `binds the ${check.transport === 'http' ? 'Streamable HTTP' : 'stdio'} transport (--transport ` +
          `${check.transport})`,
      },
    ];
  }
  const wire = ctx.observed.wire;
  if (!revisionsOf(check).includes(wire))
    return [
      {
        status: 'skip',
        message: `the requirement does not exist on the ${wire} wire: no sentence of its pages backs this check`,
      },
    ];
  if (!config.scenarios.includes(check.scenario))
    return [{ status: 'skip', message: `its scenario "${check.scenario}" was not selected (--scenario)` }];
  if (ctx.observed.messages.length === 0)
    return [{ status: 'skip', message: `not run: ${aborted ?? 'the client sent nothing'}` }];
  try {
    const outcomes = check.run(ctx);
    return outcomes.length > 0 ? outcomes : [{ status: 'skip', message: 'nothing to check in what the client sent' }];
  } catch (error) {
    return [internalErrorOutcome(check.id, error)];
  }
}

function reportOf(
  config: ClientAuditConfig,
  observed: ClientObservations,
  ctx: ClientCheckContext,
  results: CheckResult[],
  aborted: string | undefined,
): RunReport {
  const info =
    [ctx.initializeParams()?.clientInfo].find(isObject) ??
    ctx.requests.map((r) => (isObject(r.params._meta) ? r.params._meta[META_CLIENT_INFO] : undefined)).find(isObject);
  const notCalled = ctx.uncalledTools();
  const toolsCalled: Record<string, number> = {};
  for (const r of ctx.requests)
    if (r.method === 'tools/call' && typeof r.params.name === 'string')
      toolsCalled[r.params.name] = (toolsCalled[r.params.name] ?? 0) + 1;
  const withoutChecks: Omit<RunReport, 'checks'> = {
    tool: { name: 'mcp-tools-conformance', version: config.toolVersion },
    target: { transport: config.transport, command: config.command },
    wire: { protocolVersion: observed.wire, reason: observed.wireReason },
    client: {
      ...(typeof info?.name === 'string' ? { name: info.name.slice(0, 200) } : {}),
      ...(typeof info?.version === 'string' ? { version: info.version.slice(0, 100) } : {}),
      scenarios: [...config.scenarios],
      exit: observed.exit,
      messages: observed.messages.length,
      ...(observed.messagesNotKept > 0 ? { messagesNotKept: observed.messagesNotKept } : {}),
      driverLines: observed.driverLines.length,
      ...(observed.stdoutNoise.length > 0 ? { stdoutNoise: observed.stdoutNoise } : {}),
      ...(notCalled.length > 0 ? { notCalled } : {}),
    },
    startedAt: config.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - config.started),
    options: { timeoutMs: config.timeoutMs, maxDurationMs: config.maxDurationMs, concurrency: 1 },
    stats: { requests: ctx.requests.length, toolsCalled },
    summary: summarize(results),
    ...(aborted
      ? {
          aborted: {
            reason: `the client could not be audited: ${aborted}`,
            ...targetStderr(observed.stderrTail.join('\n')),
          },
        }
      : {}),
  };
  return concludeReport({ ...scrubSecrets(withoutChecks, config.secrets), checks: results }, config);
}
