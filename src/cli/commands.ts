import type { McpClient } from '../protocol/client.js';
import type { Negotiation } from '../protocol/negotiate.js';
import { walkTools, type ToolWalk } from '../protocol/tool-walk.js';
import { longestWait } from '../report/console-progress.js';
import { reportersOf } from './reporters.js';
import type { RunReport } from '../model/report.js';
import { selectChecks, type Selection } from '../runner/registry.js';
import type { CheckDefinition } from '../runner/types.js';
import { TargetUnavailableError } from '../transport/types.js';
import { ALL_CHECKS } from '../../suites/index.js';
import { DEFAULT_BASELINE_FILE, writeBaseline, type BaselineFile } from '../baseline/baseline.js';
import { DEFAULT_LOCK_FILE, lockFrom, writeLock, type ToolLockFile } from '../lock/tool-lock.js';
import type { CliOptions } from './args.js';
import { EXIT } from '../model/exit-codes.js';
import { createTarget, type Target } from './target.js';
import { printCatalog } from './check-list.js';
import { TargetGoneError } from '../protocol/errors.js';
import { secretValues } from '../engine/scrub.js';
import { buildSnapshot } from '../snapshot/capture.js';
import { replayCommandLine } from './replay-command.js';
import { abortLines } from './unavailable.js';
import { runAudit, type AuditTarget } from '../engine/audit.js';
import type { AuditConfig } from '../engine/config.js';
import type { StartedTarget } from './start-target.js';
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
  if (options.command === 'snapshot') return snapshot(early);
  if (options.command === 'lock') return lockCommand(options, early);
  return audit(options, version, early, run);
}

interface Listing {
  client: McpClient;
  negotiation: Negotiation;
  walk: ToolWalk;
  target: Target;
}

/** Connects, negotiates and walks the whole tool list, then hands it to `use`; a target that cannot be read is exit 3. */
async function withListing(early: StartedTarget, use: (listing: Listing) => Promise<number>): Promise<number> {
  const { target, client } = early;
  try {
    const negotiation = await early.negotiation;
    // A listing needs no checks: the discover result (modern wire) and the tools/list walk, as the snapshot keeps them.
    if (negotiation.wire === MODERN_VERSION) negotiation.discover ??= await client.request('server/discover');
    return await use({ client, negotiation, walk: await walkTools(client), target });
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
function snapshot(early: StartedTarget): Promise<number> {
  return withListing(early, async ({ client, negotiation, walk, target }) => {
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
  return withListing(early, async ({ walk }) => {
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

/** The engine's configuration, built once from the options. */
function auditConfig(options: CliOptions, version: string, early: StartedTarget, run: RunInputs): AuditConfig {
  return {
    toolVersion: version,
    timeoutMs: options.timeoutMs,
    maxDurationMs: options.maxDurationMs,
    maxMessageBytes: options.maxMessageBytes,
    concurrency: options.concurrency,
    ...(options.maxRps === undefined ? {} : { maxRps: options.maxRps }),
    httpConnections: options.httpConnections,
    allowTools: options.allowTools,
    skipTools: options.skipTools,
    ...(options.listChangedTrigger ? { listChangedTrigger: options.listChangedTrigger } : {}),
    property: {
      seed: options.seed,
      runs: options.runs,
      commandLine: replayCommandLine(options, early.target.description),
      ...(options.replay ? { replay: options.replay } : {}),
    },
    secrets: secretValues(options.headers, options.env),
    ...(run.inputs.known ? { baseline: run.inputs.known } : {}),
    ...(run.inputs.lock ? { lock: run.inputs.lock } : {}),
    failOn: options.failOn,
    failOnStale: options.failOnStale,
    startedAt: run.startedAt,
    started: run.started,
    deadline: run.deadline,
  };
}

async function audit(options: CliOptions, version: string, early: StartedTarget, run: RunInputs): Promise<number> {
  const { target, client, gate } = early;
  if (target.isReference && !options.referenceServer && options.reporters.includes('console') && !options.fromSnapshot) {
    process.stdout.write('No --stdio or --url given: auditing the bundled reference server.\n');
  }
  const handle = reportersOf(options, () => longestWait(early.client.inFlight()));
  const auditTarget: AuditTarget = {
    transport: target.transport,
    description: target.description,
    client,
    negotiation: early.negotiation,
    offline: target.snapshot !== undefined,
    ...(target.snapshot ? {} : { openTransport: async () => (await createTarget(options, gate)).transport }),
  };
  const report = await runAudit(auditTarget, run.checks, auditConfig(options, version, early, run), handle);
  if (run.inputs.lock && !report.lock) {
    process.stderr.write(`mcp-tools-conformance: the tool list could not be read completely, so it was not compared with ${run.inputs.lock.file}\n`);
  }
  const negotiated = report.wire.protocolVersion !== null;
  // Whatever the reporters, a target that could not be audited is said on stderr; the console already says a mid-run stop.
  if (!negotiated || !options.reporters.includes('console')) for (const line of abortLines(report, negotiated)) process.stderr.write(`${line}\n`);
  if (options.command === 'baseline') return writeBaselineOf(report, options.baseline ?? DEFAULT_BASELINE_FILE);
  const code = report.exitCode!;
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
