import type { McpClient } from '../protocol/client.js';
import type { Negotiation } from '../protocol/negotiate.js';
import { walkTools, type ToolWalk } from '../protocol/tool-walk.js';
import { longestWait } from '../report/console-progress.js';
import { reportersOf } from './reporters.js';
import { auditedRuns, type RevisionsReport, type RunReport } from '../model/report.js';
import { selectChecks, type Selection } from '../runner/registry.js';
import type { CheckDefinition } from '../runner/types.js';
import { TargetUnavailableError, type Transport } from '../transport/types.js';
import { lateGraceMs } from '../transport/late-answers.js';
import { ALL_CHECKS } from '../../suites/index.js';
import { DEFAULT_BASELINE_FILE, writeBaseline, type BaselineFile } from '../baseline/baseline.js';
import { DEFAULT_LOCK_FILE, lockFrom, writeLock, type ToolLockFile } from '../lock/tool-lock.js';
import type { CliOptions } from './args.js';
import { EXIT } from '../model/exit-codes.js';
import { createTarget, type Target } from './target.js';
import { printCatalog } from './check-list.js';
import { TargetGoneError } from '../protocol/errors.js';
import { scrubSecrets, secretValues } from '../engine/scrub.js';
import { writeFile } from 'node:fs/promises';
import { buildSnapshot } from '../snapshot/capture.js';
import { replayCommandLine } from './replay-command.js';
import { abortLines } from './abort-lines.js';
import { runAudit, type AuditEffects, type AuditTarget } from '../engine/audit.js';
import { openAuditSandbox, type AuditSandbox } from './audit-sandbox.js';
import type { AuditConfig } from '../engine/config.js';
import { LATEST_REVISION, type Revision } from '../core/revision.js';
import { runRevisions, type RevisionsPlan } from '../engine/revisions.js';
import { RequestGate } from '../transport/request-gate.js';
import { startTarget, type StartedTarget } from './start-target.js';

export { fleetCommand } from './fleet-command.js';

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
export function runCommand(
  options: CliOptions,
  version: string,
  early: StartedTarget,
  run: RunInputs,
): Promise<number> {
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

/**
 * Connects, negotiates and walks the whole tool list, then hands it to `use`; a target that cannot be read is exit 3.
 */
async function withListing(early: StartedTarget, use: (listing: Listing) => Promise<number>): Promise<number> {
  const { target, client } = early;
  try {
    const negotiation = await early.negotiation;
    // A listing needs no checks: the discover result (2026-07-28) and the tools/list walk, as the snapshot keeps them.
    if (negotiation.wire === LATEST_REVISION) negotiation.discover ??= await client.request('server/discover');
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
      process.stderr.write(
        `mcp-tools-conformance: the tool list is incomplete (${walk.stop.kind}); the snapshot holds what was ` +
          `received\n`,
      );
    }
    return EXIT.ok;
  });
}

/** `lock --write`: the tool listing's per-tool hashes, written to the --lock file. */
function lockCommand(options: CliOptions, early: StartedTarget): Promise<number> {
  const file = options.lock ?? DEFAULT_LOCK_FILE;
  return withListing(early, async ({ walk }) => {
    if (walk.stop.kind !== 'complete') {
      process.stderr.write(
        `mcp-tools-conformance: the tool list is incomplete (${walk.stop.kind}); ${file} was not written\n`,
      );
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
    // In a sandbox every listed tool is callable: what the calls change lands in a layer that is thrown away.
    allowTools: options.sandbox ? 'all' : options.allowTools,
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
    ...(options.hosts ? { hosts: options.hosts } : {}),
    startedAt: run.startedAt,
    started: run.started,
    deadline: run.deadline,
  };
}

/** The started target as the engine audits it: another connection to it opens through the same gate (and sandbox). */
function auditTargetOf(options: CliOptions, early: StartedTarget): AuditTarget {
  const { target, client, gate, sandbox } = early;
  return {
    transport: target.transport,
    description: target.description,
    client,
    negotiation: early.negotiation,
    offline: target.snapshot !== undefined,
    ...(target.snapshot ? {} : { openTransport: () => openAnother(options, gate, sandbox) }),
    ...(sandbox ? { effects: auditEffectsOf(sandbox) } : {}),
  };
}

/** Another connection of the audit: over stdio a process whose start-up is not counted against its first request. */
async function openAnother(
  options: CliOptions,
  gate: StartedTarget['gate'],
  sandbox: AuditSandbox | undefined,
): Promise<Transport> {
  const { transport } = await createTarget(options, gate, sandbox?.launch);
  transport.allowStartup?.(lateGraceMs(options.timeoutMs));
  return transport;
}

function auditEffectsOf(sandbox: AuditSandbox): AuditEffects {
  return {
    log: sandbox.effects,
    finish: async () => {
      await sandbox.effects.end();
      return { sandbox: sandbox.summary(), effects: sandbox.effects.byTool() };
    },
    explainNotStarted: (stderr) => sandbox.explainNotStarted(stderr),
  };
}

async function audit(options: CliOptions, version: string, early: StartedTarget, run: RunInputs): Promise<number> {
  if (
    early.target.isReference &&
    !options.referenceServer &&
    options.reporters.includes('console') &&
    !options.fromSnapshot
  ) {
    process.stdout.write('No --stdio or --url given: auditing the bundled reference server.\n');
  }
  const handle = reportersOf(options, () => longestWait(early.client.inFlight()));
  let listing: { walk: ToolWalk; negotiation: Negotiation } | undefined;
  const config = auditConfig(options, version, early, run);
  if (options.snapshotOut) config.onListing = (walk, negotiation) => (listing = { walk, negotiation });
  const report = await runAudit(auditTargetOf(options, early), run.checks, config, handle);
  if (options.snapshotOut) await saveListing(options.snapshotOut, early, listing, config.secrets);
  explainEnd(options, run.inputs, report);
  if (options.command === 'baseline') return writeBaselineOf([report], options.baseline ?? DEFAULT_BASELINE_FILE);
  const code = report.exitCode!;
  if (code === EXIT.failures) explainStale(options, [report]);
  return code;
}

/**
 * --snapshot-out: the audit's own listing as a snapshot, scrubbed of the user's secrets; a problem is said, not fatal.
 */
async function saveListing(
  file: string,
  early: StartedTarget,
  listing: { walk: ToolWalk; negotiation: Negotiation } | undefined,
  secrets: readonly string[],
): Promise<void> {
  if (!listing) {
    process.stderr.write(`mcp-tools-conformance: no check listed the tools, so ${file} was not written\n`);
    return;
  }
  try {
    const snapshot = scrubSecrets(
      buildSnapshot(early.client, listing.negotiation, listing.walk, early.target.description),
      secrets,
    );
    await writeFile(file, `${JSON.stringify(snapshot, null, 2)}\n`, 'utf8');
  } catch (error) {
    process.stderr.write(
      `mcp-tools-conformance: ${file} was not written: ` +
        `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
    );
  }
}

/**
 * `--revisions`: one audit per revision, one after another, each on a target started afresh (a process of its own over
 * stdio, a connection of its own over HTTP) that is offered that revision, each with its own --max-duration budget.
 */
export async function revisionsCommand(
  options: CliOptions,
  version: string,
  run: Omit<RunInputs, 'deadline'>,
): Promise<number> {
  if (!options.stdio && !options.url && !options.referenceServer && options.reporters.includes('console')) {
    process.stdout.write('No --stdio or --url given: auditing the bundled reference server.\n');
  }
  let current: StartedTarget | undefined;
  const handle = reportersOf(options, () => (current ? longestWait(current.client.inFlight()) : undefined));
  const rate = options.maxRps === undefined ? {} : { maxRps: options.maxRps };
  const plan: RevisionsPlan = {
    revisions: options.revisions ?? [],
    config: {
      toolVersion: version,
      failOn: options.failOn,
      secrets: secretValues(options.headers, options.env),
      startedAt: run.startedAt,
      started: run.started,
    },
    async open(revision) {
      const revisionOptions: CliOptions = { ...options, protocolVersion: revision };
      const deadline = Date.now() + options.maxDurationMs;
      // Each revision's audit has a sandbox of its own: what one wrote does not carry into the next.
      await current?.sandbox?.close();
      current = await startTarget(
        revisionOptions,
        version,
        new RequestGate({ deadline, ...rate }),
        revision,
        await openAuditSandbox(revisionOptions),
      );
      const config = auditConfig(revisionOptions, version, current, {
        ...run,
        startedAt: new Date(),
        started: performance.now(),
        deadline,
      });
      return { target: auditTargetOf(revisionOptions, current), config };
    },
  };
  let report: RevisionsReport;
  try {
    report = await runRevisions(plan, run.checks, handle);
  } finally {
    await current?.target.transport.close();
    await current?.sandbox?.close();
  }
  const runs = auditedRuns(report);
  for (const { revision, run: audited } of runs) explainEnd(options, run.inputs, audited, revision);
  if (runs.length === 0) {
    process.stderr.write(
      `mcp-tools-conformance: the target supports none of the revisions asked for (${plan.revisions.join(', ')}` +
        `), so nothing was audited\n`,
    );
  }
  if (options.command === 'baseline')
    return runs.length === 0
      ? EXIT.unavailable
      : writeBaselineOf(
          runs.map(({ run: r }) => r),
          options.baseline ?? DEFAULT_BASELINE_FILE,
        );
  if (report.exitCode === EXIT.failures)
    explainStale(
      options,
      runs.map(({ run: r }) => r),
    );
  return report.exitCode;
}

/** What stderr says after a run, whatever the reporters: a lock not compared, a target that could not be audited. */
function explainEnd(options: CliOptions, inputs: AuditInputs, report: RunReport, revision?: Revision): void {
  const on = revision === undefined ? '' : `${revision}: `;
  if (inputs.lock && !report.lock) {
    process.stderr.write(
      `mcp-tools-conformance: ${on}the tool list could not be read completely, so it was not compared with ` +
        `${inputs.lock.file}\n`,
    );
  }
  const negotiated = report.wire.protocolVersion !== null;
  // The console already says a mid-run stop.
  if (!negotiated || !options.reporters.includes('console')) {
    for (const line of abortLines(report, negotiated))
      process.stderr.write(`${line.replace(/^mcp-tools-conformance: /, `mcp-tools-conformance: ${on}`)}\n`);
  }
}

/** --fail-on-stale: which baseline entries no longer fail, when they are what failed the run. */
function explainStale(options: CliOptions, reports: readonly RunReport[]): void {
  if (!options.failOnStale) return;
  const stale = reports.flatMap((report) => (report.exitCode === EXIT.failures ? (report.baseline?.stale ?? []) : []));
  if (stale.length === 0) return;
  const names = [
    ...new Set(
      stale.map(
        (e) =>
          `${e.check}${e.tool ? ` (${e.tool})` : ''}${e.revision && reports.length > 1 ? ` on ${e.revision}` : ''}`,
      ),
    ),
  ];
  process.stderr.write(
    `mcp-tools-conformance: --fail-on-stale: ${names.length} baseline entr` +
      `${names.length === 1 ? 'y no longer fails' : 'ies no longer fail'}: ${names.slice(0, 10).join(', ')}` +
      `${names.length > 10 ? ', …' : ''}\n`,
  );
}

/** baseline --write: the findings of every run (each entry naming its revision), once every run completed. */
async function writeBaselineOf(reports: readonly RunReport[], file: string): Promise<number> {
  if (reports.some((report) => report.aborted || report.summary.error > 0)) {
    process.stderr.write(`mcp-tools-conformance: the audit did not complete, so ${file} was not written\n`);
    return EXIT.unavailable;
  }
  const written = await writeBaseline(file, ...reports);
  process.stdout.write(`wrote ${file}: ${written.entries.length} known finding(s)\n`);
  return EXIT.ok;
}
