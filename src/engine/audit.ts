import { compareLock } from '../lock/tool-lock.js';
import { markKnown, summarizeBaseline } from '../baseline/baseline.js';
import type { CheckResult } from '../model/check.js';
import { EXIT } from '../model/exit-codes.js';
import { hostsFailing } from '../model/hosts.js';
import { evaluateHosts, hostTool } from '../hosts/evaluate.js';
import type { HostTool } from '../hosts/types.js';
import type { LockComparison } from '../model/lock.js';
import type { EffectsLog, SandboxSummary, ToolEffects } from '../model/effects.js';
import type { RunReport } from '../model/report.js';
import type { Revision } from '../core/revision.js';
import type { McpClient } from '../protocol/client.js';
import type { Negotiation } from '../protocol/negotiate.js';
import { CheckContext } from '../runner/context.js';
import { ConnectionOpener } from '../runner/connection-opener.js';
import { runChecks, summarize, toResult } from '../runner/runner.js';
import type { CheckDefinition } from '../runner/types.js';
import { warmUpArgumentAjv } from '../schema/arguments/index.js';
import { BudgetSpentError } from '../transport/request-gate.js';
import { TargetUnavailableError, type Transport } from '../transport/types.js';
import type { AuditConfig } from './config.js';
import { depthOf } from './depth.js';
import type { AuditHandler } from './events.js';
import { scrubSecrets } from './scrub.js';
import { targetStderr } from './target-stderr.js';

/** The connection being audited, opened (and its negotiation started) by the shell. */
export interface AuditTarget {
  transport: Transport;
  description: RunReport['target'];
  client: McpClient;
  /** The wire negotiated (or a snapshot's recorded negotiation replayed); rejects when the target cannot be reached. */
  negotiation: Promise<Negotiation>;
  /** Opens another connection to the same target; absent when there is none to open (a snapshot). */
  openTransport?: () => Promise<Transport>;
  /** A saved listing replayed instead of a live target: no tool is called. */
  offline: boolean;
  /** --sandbox: the target runs in a sandbox, every call runs alone and its file effects are recorded. */
  effects?: AuditEffects;
}

/** What a sandboxed audit records, and what it adds to the report once the checks are done. */
export interface AuditEffects {
  log: EffectsLog;
  /** Takes the last state (what was written after the last call) and gives the report's parts. */
  finish(): Promise<{ sandbox: SandboxSummary; effects: Record<string, ToolEffects> }>;
  /** A hint for a target that could not be audited, from its stderr (a server that needed the network to start). */
  explainNotStarted(stderr: string): string | undefined;
}

interface Ran {
  negotiation?: Negotiation;
  results: CheckResult[];
  aborted?: RunReport['aborted'];
  cutShort?: RunReport['cutShort'];
  lockedTools?: Record<string, unknown>[];
  /** The tools listed and those the safety options kept from being called (a live target whose listing was walked). */
  toolAccess?: { listed: string[]; notAllowed: string[] };
  /** --sandbox: how the target was contained and what each tool's calls changed. */
  effects?: { sandbox: SandboxSummary; effects: Record<string, ToolEffects> };
  /** --hosts: the listed tools (once each), read after the checks. */
  hostTools?: { tools: HostTool[]; complete: boolean };
}

/**
 * One audit: runs the checks' phases on the target, tells `handle` what happens (results scrubbed of secrets and
 * marked against the baseline, once each), and ends with the report, baseline summary, lock comparison and exit code
 * set. Closes the target's connections; a target that cannot be audited is a report with `aborted` set, not a throw.
 */
export async function runAudit(
  target: AuditTarget,
  checks: readonly CheckDefinition[],
  config: AuditConfig,
  handle: AuditHandler,
): Promise<RunReport> {
  await handle({ type: 'run-started', checks: checks.length });
  // Results are marked against the baseline entries of the revision agreed, known before the first check runs.
  let revision: Revision | null = null;
  const negotiated = target.negotiation.then((negotiation) => {
    revision = negotiation.wire;
    return negotiation;
  });
  negotiated.catch(() => undefined);
  const shown = (result: CheckResult): CheckResult => shownResult(result, config, revision);
  // Each result is scrubbed and marked once, as it is emitted; the report reuses what was emitted.
  const emitted = new Map<CheckResult, CheckResult>();
  const emit = (result: CheckResult) => {
    const scrubbed = shown(result);
    emitted.set(result, scrubbed);
    void handle({ type: 'result', result: scrubbed });
  };
  const ran = await runPhases(
    { ...target, negotiation: negotiated },
    checks,
    config,
    (id) => void handle({ type: 'check-started', id }),
    emit,
  );
  const report = reportOf(
    target,
    checks,
    config,
    ran,
    ran.results.map((r) => emitted.get(r) ?? shown(r)),
  );
  await handle({ type: 'run-finished', report });
  return report;
}

async function runPhases(
  target: AuditTarget,
  checks: readonly CheckDefinition[],
  config: AuditConfig,
  onStart: (id: string) => void,
  onResult: (result: CheckResult) => void,
): Promise<Ran> {
  const connections = target.openTransport ? new ConnectionOpener(target.openTransport) : undefined;
  const budget = setTimeout(() => void target.transport.close(), config.maxDurationMs + 2_000);
  budget.unref();
  let negotiation: Negotiation | undefined;
  try {
    if (!target.offline && checks.some((c) => c.needs?.includes('tool-call'))) setImmediate(warmUpArgumentAjv);
    // Checks with a `prepare` hook open another connection; over stdio it is a new process, started before the wait.
    const overlapping = config.concurrency > 1;
    // In a sandbox a process starts in a turn of its own (what it writes then is no call's), so none starts ahead.
    if (
      connections &&
      !target.effects &&
      target.transport.kind === 'stdio' &&
      checks.some((c) => c.prepare && (overlapping || !c.preparesOnlyOverlapping))
    )
      connections.startSpare();
    negotiation = await target.negotiation;
    const ctx = new CheckContext(target.client, target.transport, negotiation, {
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      ...(connections ? { openTransport: connections.open } : {}),
      allowTools: config.allowTools,
      skipTools: config.skipTools,
      listChangedTrigger: config.listChangedTrigger,
      deadline: config.deadline,
      property: { ...config.property, concurrency: config.concurrency },
      ...(target.effects ? { effects: target.effects.log } : {}),
    });
    try {
      const output = await runChecks(checks, ctx, { onStart, onResult });
      let lockedTools: Record<string, unknown>[] | undefined;
      if (config.lock) {
        const walk = await ctx.tools().catch(() => undefined);
        if (walk?.stop.kind === 'complete') lockedTools = walk.tools;
      }
      const toolAccess = target.offline ? undefined : await ctx.toolAccess();
      const hostTools = config.hosts ? await listedForHosts(ctx) : undefined;
      if (config.onListing && !target.offline) {
        const walk = await ctx.listing();
        if (walk) config.onListing(walk, negotiation);
      }
      // The other processes end before the last state is taken, so that what they write on the way out is counted.
      if (target.effects) await ctx.closeExtras();
      const effects = await target.effects?.finish();
      return {
        negotiation,
        results: output.results,
        aborted: output.aborted,
        cutShort: output.cutShort,
        lockedTools,
        ...(toolAccess ? { toolAccess } : {}),
        ...(effects ? { effects } : {}),
        ...(hostTools ? { hostTools } : {}),
      };
    } finally {
      await ctx.closeExtras();
    }
  } catch (error) {
    if (!(error instanceof TargetUnavailableError || error instanceof BudgetSpentError)) throw error;
    const cutShort =
      error instanceof BudgetSpentError
        ? { reason: `${error.message}: all ${checks.length} check(s) skipped for budget`, checksSkipped: checks.length }
        : undefined;
    const results = checks.map((check) =>
      toResult(check, { status: 'skip', message: `not run: ${error.message}` }, 0, null),
    );
    results.forEach(onResult);
    const hint = negotiation ? undefined : target.effects?.explainNotStarted(target.transport.stderr());
    return {
      negotiation,
      results,
      aborted: { reason: `the target could not be audited: ${error.message}${hint ? `; ${hint}` : ''}` },
      ...(cutShort ? { cutShort } : {}),
    };
  } finally {
    clearTimeout(budget);
    await connections?.closeSpare();
    await target.transport.close();
  }
}

/** The tools the hosts would be given: the listing's (walked now if no check did), each name once. */
async function listedForHosts(ctx: CheckContext): Promise<Ran['hostTools']> {
  const walk = await ctx.tools().catch(() => undefined);
  if (!walk) return undefined;
  const byName = new Map<string, HostTool>();
  for (const listed of walk.tools) {
    const tool = hostTool(listed);
    if (tool && !byName.has(tool.name)) byName.set(tool.name, tool);
  }
  return { tools: [...byName.values()], complete: walk.stop.kind === 'complete' };
}

/** --hosts: the hosts' verdicts on the listed tools, under the server's name in the hosts' configs. */
function hostsOf(config: AuditConfig, ran: Ran): Pick<RunReport, 'hosts'> {
  if (!config.hosts || !ran.hostTools) return {};
  const reported = serverIdentity(ran.negotiation).server?.name;
  const serverName = config.hosts.serverName ?? reported ?? 'server';
  const serverNameFrom =
    config.hosts.serverName !== undefined ? 'option' : reported !== undefined ? 'server-info' : 'default';
  return {
    hosts: evaluateHosts({
      tools: ran.hostTools.tools,
      serverName,
      serverNameFrom,
      hosts: config.hosts.names,
      failOnHost: config.hosts.failOn,
      listingComplete: ran.hostTools.complete,
    }),
  };
}

function reportOf(
  target: AuditTarget,
  checks: readonly CheckDefinition[],
  config: AuditConfig,
  ran: Ran,
  results: CheckResult[],
): RunReport {
  const { negotiation, aborted, cutShort } = ran;
  const client = target.client;
  const timeouts = client.turns.summary();
  const withoutChecks: Omit<RunReport, 'checks'> = {
    tool: { name: 'mcp-tools-conformance', version: config.toolVersion },
    // The transport spoken, which a --url target decides in the handshake (Streamable HTTP, or the older HTTP+SSE).
    target: { ...target.description, transport: target.transport.kind },
    wire: negotiation
      ? { protocolVersion: negotiation.wire, reason: negotiation.reason }
      : { protocolVersion: null, reason: aborted?.reason ?? 'not negotiated' },
    ...serverIdentity(negotiation),
    startedAt: config.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - config.started),
    options: {
      timeoutMs: config.timeoutMs,
      maxDurationMs: config.maxDurationMs,
      maxMessageBytes: config.maxMessageBytes,
      concurrency: config.concurrency,
      ...(config.maxRps === undefined ? {} : { maxRps: config.maxRps }),
      // The connections the transport spoke over: a --url that turned out to speak HTTP+SSE has its own number.
      ...((target.transport.connectionCount ?? 1) > 1 ? { httpConnections: target.transport.connectionCount } : {}),
    },
    stats: {
      requests: client.exchanges.filter((e) => e.response !== undefined || e.failure).length,
      toolsCalled: Object.fromEntries(client.toolsCalled),
      ...(ran.toolAccess ? { toolsListed: ran.toolAccess.listed, toolsNotAllowed: ran.toolAccess.notAllowed } : {}),
      ...(timeouts ? { timeouts } : {}),
    },
    summary: summarize(results),
    ...(checks.some((c) => c.area === 'property') && !target.offline
      ? {
          property: {
            seed: config.property.seed,
            runs: config.property.runs,
            ...(config.property.replay
              ? { replay: `${config.property.replay.tool}@${config.property.replay.path}` }
              : {}),
          },
        }
      : {}),
    ...(aborted ? { aborted: { ...aborted, ...targetStderr(target.transport.stderr()) } } : {}),
    ...(cutShort ? { cutShort } : {}),
    ...(ran.effects ?? {}),
    ...hostsOf(config, ran),
  };
  // The results were scrubbed as they were emitted; the rest of the report (an abort reason, the target's stderr, the
  // server's name) may echo a header or an environment value back too: nothing of it is kept.
  const lock =
    config.lock && ran.lockedTools ? compareLock(config.lock.data, ran.lockedTools, config.lock.file) : undefined;
  const report: RunReport = { ...scrubSecrets(withoutChecks, config.secrets), checks: results };
  return concludeReport(ran.toolAccess ? { ...report, depth: depthOf(report) } : report, config, lock);
}

/**
 * A result of a run on `revision` as every subscriber and the report see it: marked against the baseline, scrubbed of
 * secrets.
 */
export function shownResult(
  result: CheckResult,
  config: Pick<AuditConfig, 'baseline' | 'secrets'>,
  revision: Revision | null,
): CheckResult {
  return scrubSecrets(config.baseline ? markKnown(result, config.baseline.data, revision) : result, config.secrets);
}

/**
 * The end of every report, server or client audit: the baseline summary, the lock comparison (server audits with
 * --lock), then the exit code and verdict under --fail-on.
 */
export function concludeReport(
  report: RunReport,
  config: Pick<AuditConfig, 'baseline' | 'failOn' | 'failOnStale'>,
  lock?: LockComparison,
): RunReport {
  const concluded: RunReport = { ...report };
  if (config.baseline)
    concluded.baseline = summarizeBaseline(
      report.checks,
      config.baseline.data,
      config.baseline.file,
      report.wire.protocolVersion,
    );
  if (lock) concluded.lock = lock;
  const code = exitCode(concluded, config.failOn, config.failOnStale);
  return { ...concluded, verdict: verdictOf(code), exitCode: code, failOn: config.failOn };
}

/**
 * Exit code: failures listed in the baseline do not count; a changed tool-set lock does, and stale entries with
 * --fail-on-stale.
 */
export function exitCode(report: RunReport, failOn: 'must' | 'should', failOnStale = false): number {
  if (report.aborted || report.summary.error > 0) return EXIT.unavailable;
  const counted = report.checks.filter((c) => !c.baselined);
  if (counted.some((c) => c.status === 'fail')) return EXIT.failures;
  if (failOn === 'should' && counted.some((c) => c.status === 'warn')) return EXIT.failures;
  if (report.lock?.status === 'changed') return EXIT.failures;
  // --fail-on-host: a tool a named host refuses; without it the hosts' verdicts never reach the exit code.
  if (hostsFailing(report.hosts).length > 0) return EXIT.failures;
  if (failOnStale && (report.baseline?.stale.length ?? 0) > 0) return EXIT.failures;
  return EXIT.ok;
}

/** What the run concluded, for report.json: a consumer reads the verdict and exit code instead of recomputing them. */
export function verdictOf(code: number): NonNullable<RunReport['verdict']> {
  return code === EXIT.ok ? 'pass' : code === EXIT.failures ? 'fail' : 'aborted';
}

function serverIdentity(negotiation: Negotiation | undefined): Pick<RunReport, 'server'> {
  const response = (negotiation?.discover ?? negotiation?.initialize)?.response as
    { result?: { _meta?: Record<string, unknown>; serverInfo?: unknown } } | undefined;
  const info = (response?.result?._meta?.['io.modelcontextprotocol/serverInfo'] ?? response?.result?.serverInfo) as
    { name?: unknown; version?: unknown } | undefined;
  if (!info || typeof info !== 'object') return {};
  return {
    server: {
      ...(typeof info.name === 'string' ? { name: info.name.slice(0, 200) } : {}),
      ...(typeof info.version === 'string' ? { version: info.version.slice(0, 100) } : {}),
    },
  };
}
