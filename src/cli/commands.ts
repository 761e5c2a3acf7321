import type { McpClient } from '../protocol/client.js';
import type { Negotiation } from '../protocol/negotiate.js';
import type { ToolWalk } from '../protocol/tool-walk.js';
import { createReporter, colorEnabled } from '../report/index.js';
import { longestWait } from '../report/console-progress.js';
import type { Reporter, RunReport } from '../report/types.js';
import { CheckContext } from '../runner/context.js';
import { ConnectionOpener } from '../runner/connection-opener.js';
import { selectChecks, type Selection } from '../runner/registry.js';
import { runChecks, summarize, toResult } from '../runner/runner.js';
import type { CheckDefinition, CheckResult } from '../runner/types.js';
import { TargetUnavailableError } from '../transport/types.js';
import { BudgetSpentError } from '../transport/request-gate.js';
import { ALL_CHECKS } from '../../suites/index.js';
import { applyBaseline, DEFAULT_BASELINE_FILE, markKnown, writeBaseline, type BaselineFile } from '../baseline/baseline.js';
import { compareLock, DEFAULT_LOCK_FILE, lockFrom, writeLock, type ToolLockFile } from '../lock/tool-lock.js';
import { EXIT, type CliOptions } from './args.js';
import { createTarget, type Target } from './target.js';
import { printCatalog } from './catalog.js';
import { TargetGoneError } from '../protocol/errors.js';
import { scrubSecrets, secretValues } from './secrets.js';
import { buildSnapshot } from '../snapshot/capture.js';
import { replayCommandLine } from './replay-command.js';
import { abortLines, targetStderr } from './unavailable.js';
import type { StartedTarget } from './start-target.js';
import { warmUpArgumentAjv } from '../schema/arguments/ajv-family.js';
import { MODERN_VERSION } from '../model/wire.js';

export interface RunInputs {
  checks: readonly CheckDefinition[];
  inputs: AuditInputs;
  /** When the command began, for the report's start time and duration. */
  startedAt: Date;
  started: number;
  /** The --max-duration deadline (ms since epoch). */
  deadline: number;
}

export function selectedChecks(options: CliOptions): Selection {
  return selectChecks(ALL_CHECKS, options.checks, options.excludeChecks);
}

export function listChecks(checks: readonly CheckDefinition[]): number {
  printCatalog(checks, process.stdout);
  return EXIT.ok;
}

/** Runs the command on the started target; the caller closes the target afterwards. */
export function runCommand(options: CliOptions, version: string, early: StartedTarget, run: RunInputs): Promise<number> {
  if (options.command === 'snapshot') return snapshot(options, early);
  if (options.command === 'lock') return lockCommand(options, early);
  return audit(options, version, early, run);
}

interface Listing {
  client: McpClient;
  negotiation: Negotiation;
  ctx: CheckContext;
  walk: ToolWalk;
  target: Target;
}

/** Connects, negotiates and walks the whole tool list, then hands it to `use`; a target that cannot be read is exit 3. */
async function withListing(options: CliOptions, early: StartedTarget, use: (listing: Listing) => Promise<number>): Promise<number> {
  const { target, client } = early;
  try {
    const negotiation = await early.negotiation;
    const ctx = new CheckContext(client, target.transport, negotiation, { timeoutMs: options.timeoutMs });
    if (negotiation.wire === MODERN_VERSION) negotiation.discover ??= await ctx.discover();
    return await use({ client, negotiation, ctx, walk: await ctx.tools(), target });
  } catch (error) {
    if (error instanceof TargetUnavailableError || error instanceof TargetGoneError) {
      process.stderr.write(`mcp-tools-conformance: the target could not be read: ${error.message}\n`);
      return EXIT.unavailable;
    }
    throw error;
  } finally {
    await target.transport.close();
  }
}

/** `snapshot`: the complete tool listing as JSON on stdout, for `--from-snapshot`. */
function snapshot(options: CliOptions, early: StartedTarget): Promise<number> {
  return withListing(options, early, async ({ client, negotiation, walk, target }) => {
    let text: string;
    try {
      text = JSON.stringify(buildSnapshot(client, negotiation, walk, target.description), null, 2);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      process.stderr.write('mcp-tools-conformance: the tool list is nested too deeply to be saved as JSON\n');
      return EXIT.unavailable;
    }
    process.stdout.write(text + '\n');
    if (walk.stop.kind !== 'complete') {
      process.stderr.write(`mcp-tools-conformance: the tool list is incomplete (${walk.stop.kind}); the snapshot holds what was received\n`);
    }
    return EXIT.ok;
  });
}

/** `lock --write`: the tool listing's per-tool hashes, written to the --lock file. */
function lockCommand(options: CliOptions, early: StartedTarget): Promise<number> {
  const file = options.lock ?? DEFAULT_LOCK_FILE;
  return withListing(options, early, async ({ walk }) => {
    if (walk.stop.kind !== 'complete') {
      process.stderr.write(`mcp-tools-conformance: the tool list is incomplete (${walk.stop.kind}); ${file} was not written\n`);
      return EXIT.unavailable;
    }
    const lock = lockFrom(walk.tools, new Date().toISOString());
    await writeLock(file, lock);
    process.stdout.write(`wrote ${file}: ${Object.keys(lock.tools).length} tools\n`);
    return EXIT.ok;
  });
}

export interface AuditInputs {
  known?: { file: string; data: BaselineFile };
  lock?: { file: string; data: ToolLockFile };
}

async function audit(options: CliOptions, version: string, early: StartedTarget, run: RunInputs): Promise<number> {
  const { checks, inputs, startedAt, started, deadline } = run;
  const { target, client, gate } = early;
  const written: string[] = [];
  const reporters: Reporter[] = options.reporters.map((name) =>
    createReporter(name, {
      stream: process.stdout,
      color: options.color ?? colorEnabled(process.stdout),
      verbose: options.verbose,
      quiet: options.quiet,
      progress: { interactive: (process.stdout as { isTTY?: boolean }).isTTY === true, waitingOn: () => longestWait(client.inFlight()) },
      junitProperties: options.junitProperties,
      writtenPaths: () => written,
      ...(options.sarifArtifact !== undefined ? { sarifArtifact: options.sarifArtifact } : {}),
      ...(options.reporters.includes('html') ? { htmlReport: 'report.html' } : {}),
    }),
  );
  const secrets = secretValues(options.headers, options.env);
  if (target.isReference && !options.referenceServer && options.reporters.includes('console') && !options.fromSnapshot) {
    process.stdout.write('No --stdio or --url given: auditing the bundled reference server.\n');
  }
  const connections = target.snapshot ? undefined : new ConnectionOpener(async () => (await createTarget(options, gate)).transport);
  const budget = setTimeout(() => void target.transport.close(), options.maxDurationMs + 2_000);
  budget.unref();

  let negotiation: Negotiation | undefined;
  let results: CheckResult[];
  let aborted: RunReport['aborted'];
  let cutShort: RunReport['cutShort'];
  let lockedTools: Record<string, unknown>[] | undefined;
  try {
    if (!target.snapshot && checks.some((c) => c.needs?.includes('tool-call'))) setImmediate(warmUpArgumentAjv);
    // Checks with a `prepare` hook open another connection; over stdio it is a new process, started before the wait.
    if (connections && target.transport.kind === 'stdio' && checks.some((c) => c.prepare)) connections.startSpare();
    negotiation = await early.negotiation;
    const ctx = new CheckContext(client, target.transport, negotiation, {
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      ...(connections ? { openTransport: connections.open } : {}),
      allowTools: options.allowTools,
      skipTools: options.skipTools,
      listChangedTrigger: options.listChangedTrigger,
      deadline,
      property: {
        seed: options.seed,
        runs: options.runs,
        concurrency: options.concurrency,
        commandLine: replayCommandLine(options, target.description),
        ...(options.replay ? { replay: options.replay } : {}),
      },
    });
    try {
      const output = await runChecks(checks, ctx, {
        concurrency: options.concurrency,
        deadline,
        onStart: (id) => reporters.forEach((rep) => rep.onStart?.(id)),
        onResult: (r) => {
          const shown = scrubSecrets(inputs.known ? markKnown(r, inputs.known.data) : r, secrets);
          reporters.forEach((rep) => rep.onResult?.(shown));
        },
      });
      if (inputs.lock) {
        const walk = await ctx.tools().catch(() => undefined);
        if (walk?.stop.kind === 'complete') lockedTools = walk.tools;
      }
      results = output.results;
      aborted = output.aborted;
      cutShort = output.cutShort;
    } finally {
      await ctx.closeExtras();
    }
  } catch (error) {
    if (!(error instanceof TargetUnavailableError || error instanceof BudgetSpentError)) throw error;
    if (error instanceof BudgetSpentError) cutShort = { reason: `${error.message}: all ${checks.length} check(s) skipped for budget`, checksSkipped: checks.length };
    aborted = { reason: `the target could not be audited: ${error.message}` };
    results = checks.map((check) => toResult(check, { status: 'skip', message: `not run: ${error.message}` }, 0, null));
    results.forEach((r) => reporters.forEach((rep) => rep.onResult?.(r)));
  } finally {
    clearTimeout(budget);
    await connections?.closeSpare();
    await target.transport.close();
  }

  let report: RunReport = {
    tool: { name: 'mcp-tools-conformance', version },
    target: target.description,
    wire: negotiation ? { protocolVersion: negotiation.wire, reason: negotiation.reason } : { protocolVersion: null, reason: aborted?.reason ?? 'not negotiated' },
    ...serverIdentity(negotiation),
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    options: {
      timeoutMs: options.timeoutMs,
      maxDurationMs: options.maxDurationMs,
      maxMessageBytes: options.maxMessageBytes,
      concurrency: options.concurrency,
      ...(options.maxRps === undefined ? {} : { maxRps: options.maxRps }),
      ...(options.httpConnections > 1 ? { httpConnections: options.httpConnections } : {}),
    },
    stats: { requests: client.exchanges.filter((e) => e.response !== undefined || e.failure).length, toolsCalled: Object.fromEntries(client.toolsCalled) },
    summary: summarize(results),
    ...(checks.some((c) => c.area === 'property') && !target.snapshot ? { property: { seed: options.seed, runs: options.runs, ...(options.replay ? { replay: `${options.replay.tool}@${options.replay.path}` } : {}) } } : {}),
    ...(aborted ? { aborted: { ...aborted, ...targetStderr(target.transport.stderr()) } } : {}),
    ...(cutShort ? { cutShort } : {}),
    checks: results,
  };
  // A target may echo a header or an environment value back (an error message, a get-env tool): nothing of it is kept.
  report = scrubSecrets(report, secrets);
  if (inputs.known) report = applyBaseline(report, inputs.known.data, inputs.known.file);
  if (inputs.lock && lockedTools) report.lock = compareLock(inputs.lock.data, lockedTools, inputs.lock.file);
  else if (inputs.lock) process.stderr.write(`mcp-tools-conformance: the tool list could not be read completely, so it was not compared with ${inputs.lock.file}\n`);
  const code = exitCode(report, options.failOn, options.failOnStale);
  report = { ...report, verdict: verdictOf(code), exitCode: code, failOn: options.failOn };
  for (const reporter of reporters.filter((r) => r.name !== 'console')) {
    const path = await reporter.finish(report, options.outputDir);
    if (path) written.push(path);
  }
  for (const reporter of reporters.filter((r) => r.name === 'console')) await reporter.finish(report, options.outputDir);
  // Whatever the reporters, a target that could not be audited is said on stderr; the console already says a mid-run stop.
  if (!negotiation || !options.reporters.includes('console')) for (const line of abortLines(report, negotiation !== undefined)) process.stderr.write(`${line}\n`);
  if (options.command === 'baseline') return writeBaselineOf(report, options.baseline ?? DEFAULT_BASELINE_FILE);
  if (options.failOnStale && report.baseline && report.baseline.stale.length > 0 && code === EXIT.failures) {
    const stale = report.baseline.stale.map((e) => `${e.check}${e.tool ? ` (${e.tool})` : ''}`);
    process.stderr.write(`mcp-tools-conformance: --fail-on-stale: ${stale.length} baseline entr${stale.length === 1 ? 'y no longer fails' : 'ies no longer fail'}: ${stale.slice(0, 10).join(', ')}${stale.length > 10 ? ', …' : ''}\n`);
  }
  return code;
}

async function writeBaselineOf(report: RunReport, file: string): Promise<number> {
  if (report.aborted || report.summary.error > 0) {
    process.stderr.write(`mcp-tools-conformance: the audit did not complete, so ${file} was not written\n`);
    return EXIT.unavailable;
  }
  const written = await writeBaseline(file, report);
  process.stdout.write(`wrote ${file}: ${written.entries.length} known finding(s)\n`);
  return EXIT.ok;
}

/** Exit code: failures listed in the baseline do not count; a changed tool-set lock does, and stale entries with --fail-on-stale. */
export function exitCode(report: RunReport, failOn: 'must' | 'should', failOnStale = false): number {
  if (report.aborted || report.summary.error > 0) return EXIT.unavailable;
  const counted = report.checks.filter((c) => !c.baselined);
  if (counted.some((c) => c.status === 'fail')) return EXIT.failures;
  if (failOn === 'should' && counted.some((c) => c.status === 'warn')) return EXIT.failures;
  if (report.lock?.status === 'changed') return EXIT.failures;
  if (failOnStale && (report.baseline?.stale.length ?? 0) > 0) return EXIT.failures;
  return EXIT.ok;
}

/** What the run concluded, for report.json: a consumer reads the verdict and exit code instead of recomputing them. */
export function verdictOf(code: number): RunReport['verdict'] {
  return code === EXIT.ok ? 'pass' : code === EXIT.failures ? 'fail' : 'aborted';
}

function serverIdentity(negotiation: Negotiation | undefined): Pick<RunReport, 'server'> {
  const response = (negotiation?.discover ?? negotiation?.initialize)?.response as
    | { result?: { _meta?: Record<string, unknown>; serverInfo?: unknown } }
    | undefined;
  const info = (response?.result?._meta?.['io.modelcontextprotocol/serverInfo'] ?? response?.result?.serverInfo) as
    | { name?: unknown; version?: unknown }
    | undefined;
  if (!info || typeof info !== 'object') return {};
  return {
    server: {
      ...(typeof info.name === 'string' ? { name: info.name.slice(0, 200) } : {}),
      ...(typeof info.version === 'string' ? { version: info.version.slice(0, 100) } : {}),
    },
  };
}

