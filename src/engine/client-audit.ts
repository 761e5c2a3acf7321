import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markKnown, summarizeBaseline } from '../baseline/baseline.js';
import { startCanary } from '../client-mode/canary.js';
import { runClient, type ClientRun } from '../client-mode/client-process.js';
import { startHttpFront } from '../client-mode/http-front.js';
import { MAX_SEEN_MESSAGES, Recorder } from '../client-mode/recorder.js';
import type { Scenario } from '../client-mode/scenarios.js';
import { ScriptedServer, type ScriptedSetup } from '../client-mode/scripted-server.js';
import { sessionFiles } from '../client-mode/session.js';
import { isObject } from '../jsonrpc.js';
import type { CheckResult, Outcome } from '../model/check.js';
import type { ClientObservations, DriverLine, SeenMessage } from '../model/client-observation.js';
import type { RunReport } from '../model/report.js';
import { MODERN_VERSION } from '../model/wire.js';
import { META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../protocol/constants.js';
import { ClientCheckContext, type ClientCheckDefinition } from '../runner/client-check.js';
import { summarize, toResult } from '../runner/runner.js';
import { exitCode, verdictOf } from './audit.js';
import type { AuditConfig } from './config.js';
import type { AuditHandler } from './events.js';
import { scrubSecrets } from './scrub.js';
import { targetStderr } from './target-stderr.js';

/** Environment variables of the driver contract. */
export const ENV_URL = 'MCP_CONFORMANCE_URL';
export const ENV_SERVER_COMMAND = 'MCP_CONFORMANCE_SERVER_COMMAND';
const NOISE_KEPT = 20;

export interface ClientAuditConfig extends Pick<AuditConfig, 'toolVersion' | 'timeoutMs' | 'maxDurationMs' | 'baseline' | 'failOn' | 'failOnStale' | 'startedAt' | 'started' | 'deadline' | 'secrets'> {
  /** The client command line (split like a shell; the endpoint URL is appended over HTTP). */
  command: string;
  transport: 'http' | 'stdio';
  scenarios: readonly Scenario[];
  /** stdio: the command line that starts the scripted server with the given session folder. */
  serverCommand(sessionDir: string): string;
}

/**
 * One client audit: starts the scripted server (and the canary its schemas name), runs the client command until it
 * exits or the budget runs out, then judges what was seen with the client checks and ends with the report. Nothing
 * the client does makes this throw; a client that cannot be audited is a report with `aborted` set (exit 3).
 */
export async function runClientAudit(config: ClientAuditConfig, checks: readonly ClientCheckDefinition[], handle: AuditHandler): Promise<RunReport> {
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
      const raw = toResult(check, outcome, elapsed / outcomes.length, MODERN_VERSION);
      const shown = scrubSecrets(config.baseline ? markKnown(raw, config.baseline.data) : raw, config.secrets);
      results.push(shown);
      void handle({ type: 'result', result: shown });
    }
  }
  const report = reportOf(config, observed, ctx, results, aborted);
  await handle({ type: 'run-finished', report });
  return report;
}

function judge(check: ClientCheckDefinition, ctx: ClientCheckContext, config: ClientAuditConfig, aborted: string | undefined): Outcome[] {
  if (check.transport && check.transport !== config.transport) {
    return [{ status: 'skip', message: `binds the ${check.transport === 'http' ? 'Streamable HTTP' : 'stdio'} transport (--transport ${check.transport})` }];
  }
  if (!config.scenarios.includes(check.scenario)) return [{ status: 'skip', message: `its scenario "${check.scenario}" was not selected (--scenario)` }];
  if (ctx.observed.messages.length === 0) return [{ status: 'skip', message: `not run: ${aborted ?? 'the client sent nothing'}` }];
  try {
    const outcomes = check.run(ctx);
    return outcomes.length > 0 ? outcomes : [{ status: 'skip', message: 'nothing to check in what the client sent' }];
  } catch (error) {
    const err = error as Error;
    return [{ status: 'error', message: `internal error in check ${check.id}: ${err?.message ?? String(error)}`, evidence: [{ note: 'stack', data: err?.stack?.split('\n').slice(0, 8).join('\n') }] }];
  }
}

/** Runs the client against the scripted server and collects everything the checks judge. */
async function observe(config: ClientAuditConfig): Promise<ClientObservations> {
  const canary = await startCanary();
  const setup: ScriptedSetup = { scenarios: config.scenarios, canaryOrigin: canary.origin, timeOrigin: Date.now(), version: config.toolVersion };
  const server = new ScriptedServer(setup);
  const offered = Object.fromEntries(server.tools.map((t) => [String(t.name), t]));
  let run: ClientRun;
  let messages: SeenMessage[];
  let notKept = 0;
  if (config.transport === 'http') {
    const recorder = new Recorder(setup.timeOrigin);
    const front = await startHttpFront(server, recorder);
    try {
      run = await runClient(config.command, [front.url], { [ENV_URL]: front.url }, config.deadline);
    } finally {
      await front.close();
    }
    messages = recorder.seen;
    notKept = recorder.dropped;
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-client-'));
    const files = sessionFiles(dir);
    try {
      await writeFile(files.setup, JSON.stringify(setup));
      run = await runClient(config.command, [], { [ENV_SERVER_COMMAND]: config.serverCommand(dir) }, config.deadline);
      ({ messages, notKept } = await readSeen(files.seen));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  await canary.close();
  const { driverLines, stdoutNoise } = readDriverLines(run.stdoutLines);
  return {
    transport: config.transport,
    offered,
    messages,
    messagesNotKept: notKept,
    canaryHits: canary.hits,
    driverLines,
    stdoutNoise,
    stderrTail: run.stderr.split('\n').filter((l) => l.trim() !== '').slice(-40),
    exit: run.exit,
    durationMs: run.durationMs,
  };
}

/** The stdio server processes' reports, in order of arrival (each process appended its own as it answered). */
async function readSeen(file: string): Promise<{ messages: SeenMessage[]; notKept: number }> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const seen = text
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as SeenMessage];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.t - b.t);
  const messages = seen.slice(0, MAX_SEEN_MESSAGES);
  messages.forEach((entry, index) => (entry.seq = index + 1));
  return { messages, notKept: seen.length - messages.length };
}

function readDriverLines(lines: readonly string[]): { driverLines: DriverLine[]; stdoutNoise: string[] } {
  const driverLines: DriverLine[] = [];
  const stdoutNoise: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (isObject(parsed) && typeof parsed.tool === 'string' && ('result' in parsed || 'error' in parsed)) {
      driverLines.push({ tool: parsed.tool, outcome: 'error' in parsed ? 'error' : 'result', value: 'error' in parsed ? parsed.error : parsed.result });
    } else if (stdoutNoise.length < NOISE_KEPT) {
      stdoutNoise.push(line.slice(0, 300));
    }
  }
  return { driverLines, stdoutNoise };
}

/** Why the client could not be audited (exit 3), or undefined when it ran and exited 0 having sent something. */
function abortReason(observed: ClientObservations): string | undefined {
  const { exit, messages } = observed;
  const legacy = earlierRevision(messages);
  const spoke = legacy ? `; it spoke an earlier revision (initialize with protocolVersion ${JSON.stringify(legacy)}), and the scripted server speaks ${MODERN_VERSION} only, so the rules of ${MODERN_VERSION} could not be judged on its wire` : '';
  if (exit.kind === 'not-started') return exit.message;
  if (exit.kind === 'timed-out') return `the client did not exit before the --max-duration budget ran out and was killed${spoke}`;
  if (exit.code !== 0) return `the client exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}${spoke}`;
  if (messages.length === 0) return 'the client exited without sending a message to the scripted server';
  return undefined;
}

/** The protocolVersion of an `initialize` the client sent, when it sent no 2026-07-28 request at all. */
function earlierRevision(messages: readonly SeenMessage[]): string | undefined {
  const requests = messages.map((m) => m.message).filter(isObject);
  const modern = requests.some((m) => isObject(m.params) && isObject(m.params._meta) && m.params._meta[META_PROTOCOL_VERSION] === MODERN_VERSION);
  const initialize = requests.find((m) => m.method === 'initialize');
  if (modern || !initialize) return undefined;
  const version = isObject(initialize.params) ? initialize.params.protocolVersion : undefined;
  return typeof version === 'string' ? version : 'none';
}

function reportOf(config: ClientAuditConfig, observed: ClientObservations, ctx: ClientCheckContext, results: CheckResult[], aborted: string | undefined): RunReport {
  const info = ctx.requests.map((r) => (isObject(r.params._meta) ? r.params._meta[META_CLIENT_INFO] : undefined)).find(isObject);
  const toolsCalled: Record<string, number> = {};
  for (const r of ctx.requests) if (r.method === 'tools/call' && typeof r.params.name === 'string') toolsCalled[r.params.name] = (toolsCalled[r.params.name] ?? 0) + 1;
  const withoutChecks: Omit<RunReport, 'checks'> = {
    tool: { name: 'mcp-tools-conformance', version: config.toolVersion },
    target: { transport: config.transport, command: config.command },
    wire: { protocolVersion: MODERN_VERSION, reason: `client mode: the scripted server speaks ${MODERN_VERSION}` },
    client: {
      ...(typeof info?.name === 'string' ? { name: info.name.slice(0, 200) } : {}),
      ...(typeof info?.version === 'string' ? { version: info.version.slice(0, 100) } : {}),
      scenarios: [...config.scenarios],
      exit: observed.exit,
      messages: observed.messages.length,
      ...(observed.messagesNotKept > 0 ? { messagesNotKept: observed.messagesNotKept } : {}),
      driverLines: observed.driverLines.length,
    },
    startedAt: config.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - config.started),
    options: { timeoutMs: config.timeoutMs, maxDurationMs: config.maxDurationMs, concurrency: 1 },
    stats: { requests: ctx.requests.length, toolsCalled },
    summary: summarize(results),
    ...(aborted ? { aborted: { reason: `the client could not be audited: ${aborted}`, ...targetStderr(observed.stderrTail.join('\n')) } } : {}),
  };
  let report: RunReport = { ...scrubSecrets(withoutChecks, config.secrets), checks: results };
  if (config.baseline) report.baseline = summarizeBaseline(results, config.baseline.data, config.baseline.file);
  const code = exitCode(report, config.failOn, config.failOnStale);
  report = { ...report, verdict: verdictOf(code), exitCode: code, failOn: config.failOn };
  return report;
}
