import { existsSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { secretValues, scrubSecrets } from '../../engine/scrub.js';
import { fleetLockFrom, serverLock, serversRemoved, writeFleetLock, type FleetLockFile } from '../lock.js';
import { EXIT } from '../../model/exit-codes.js';
import {
  isUnavailable,
  OUTCOME_ORDER,
  type AuditDepth,
  type FleetEntry,
  type FleetLockOutcome,
  type FleetOutcome,
  type FleetReport,
  type FleetServerResult,
} from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';
import { pool } from '../../runner/pool.js';
import { startOrder } from './start-order.js';
import { crossServerFindings, type ServerTools } from '../cross-server.js';
import { runAuditProcess } from './audit-process.js';
import { AuditProcesses } from './audit-pool.js';
import { LISTING_FILE, readListedTools, readListing } from './listing.js';
import { classify, notAudited, type AuditRun, type Classified } from './outcome.js';
import { inShard, invocationOf, safeNames, type ServerAuditFlags } from './plan.js';

/** Where each server's own report goes, under the fleet's output directory. */
export const SERVERS_DIR = 'servers';
/** Each server's part of the fleet lock (--lock), beside its report: what its audit compared its tools with. */
export const SERVER_LOCK_FILE = 'tools.lock.json';

export interface FleetPlan {
  toolVersion: string;
  files: string[];
  entries: FleetEntry[];
  flags: ServerAuditFlags;
  /** --max-duration: each server's budget. */
  maxDurationMs: number;
  jobs: number;
  shard?: { index: number; count: number };
  failOn: 'must' | 'should';
  failOnUnavailable: boolean;
  outputDir: string;
  /** Our CLI's entry script, run once per server. */
  cli: string;
  /** A stdio server's working directory when its entry names none (a relative one is taken from here). */
  cwd: string;
  /** --lock: each server's tools are compared with its part of this lock. */
  lock?: { file: string; data: FleetLockFile };
  /** --lock-write: the file the fleet lock is written to, from each server's complete listing. */
  lockWrite?: string;
  /**
   * Each server's time in the previous fleet of this output folder, by name: the longest start first (start-order.ts).
   */
  previousMs?: ReadonlyMap<string, number>;
}

/** What the fleet tells its console while it runs. */
export interface FleetProgress {
  started?(name: string, counts: FleetCounts): void;
  finished?(result: FleetServerResult, counts: FleetCounts): void;
}

export interface FleetCounts {
  done: number;
  running: number;
  left: number;
}

/** Audits one server, in one of `processes` when given; replaceable in tests of the scheduling. */
export type Auditor = (
  cli: string,
  invocation: ReturnType<typeof invocationOf>,
  reportFile: string,
  budgetMs: number,
  processes?: AuditProcesses,
) => Promise<AuditRun>;

/**
 * Audits every entry of the fleet, `jobs` at a time, each as a single audit would (in its lane's process of our CLI),
 * and returns the fleet's report: one result per entry in file order (the skipped and unstarted ones too), scrubbed of
 * every entry's secrets.
 */
export async function runFleet(
  plan: FleetPlan,
  progress: FleetProgress = {},
  audit: Auditor = runAuditProcess,
): Promise<FleetReport> {
  const startedAt = new Date();
  const started = performance.now();
  const folders = safeNames(plan.entries.map((e) => e.name));
  const results: FleetServerResult[] = new Array(plan.entries.length);
  const toAudit: number[] = [];
  plan.entries.forEach((entry, i) => {
    const settled = notAudited(entry, inShard(i, plan.shard), plan.shard) ?? missingCwd(entry, plan.cwd);
    if (settled) results[i] = resultOf(entry, settled, 0);
    else toAudit.push(i);
  });
  const counts: FleetCounts = { done: 0, running: 0, left: toAudit.length };
  const listings: (ServerTools | undefined)[] = new Array(plan.entries.length);
  const fullListings: (Record<string, unknown>[] | undefined)[] = new Array(plan.entries.length);
  const order = startOrder(
    toAudit,
    plan.entries.map((e) => e.name),
    plan.previousMs ?? new Map(),
  );
  // A lane's audits run in one process of our CLI while each ends normally (audit-pool.ts).
  const processes = new AuditProcesses(plan.cli);
  await pool(order, Math.max(1, plan.jobs), async (i) => {
    const entry = plan.entries[i]!;
    counts.left -= 1;
    counts.running += 1;
    progress.started?.(entry.name, { ...counts });
    const began = performance.now();
    const folder = resolve(plan.outputDir, SERVERS_DIR, folders[i]!);
    const reportFile = resolve(folder, 'report.json');
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    let lockFile: string | undefined;
    if (plan.lock) {
      lockFile = resolve(folder, SERVER_LOCK_FILE);
      await writeFile(lockFile, `${JSON.stringify(serverLock(plan.lock.data, entry.name), null, 2)}\n`, 'utf8');
    }
    const run = await audit(
      plan.cli,
      invocationOf(entry, plan.flags, folder, plan.cwd, lockFile),
      reportFile,
      plan.maxDurationMs,
      processes,
    );
    if (run.report) listings[i] = await readListing(resolve(folder, LISTING_FILE), entry.name);
    if (run.report && plan.lockWrite !== undefined) {
      const listed = await readListedTools(resolve(folder, LISTING_FILE));
      if (listed?.complete) fullListings[i] = listed.tools;
    }
    const result = resultOf(
      entry,
      classify(entry, run),
      performance.now() - began,
      run.report,
      run.report ? `${SERVERS_DIR}/${folders[i]}/report.json` : undefined,
    );
    results[i] = scrubSecrets(result, secretValues(entry.headers ?? {}, entry.env ?? {}));
    counts.running -= 1;
    counts.done += 1;
    progress.finished?.(results[i]!, { ...counts });
  }).finally(() => processes.close());
  const servers = results;
  const lock = await settleLock(plan, servers, fullListings, startedAt);
  const summary = Object.fromEntries(
    OUTCOME_ORDER.map((o) => [o, servers.filter((s) => s.outcome === o).length]),
  ) as Record<FleetOutcome, number>;
  const report: FleetReport = {
    tool: { name: 'mcp-tools-conformance', version: plan.toolVersion },
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    files: plan.files,
    ...(plan.shard ? { shard: plan.shard } : {}),
    summary,
    servers,
    // What only a fleet sees, over the listings of the servers audited (in file order).
    findings: crossServerFindings(listings.filter((l): l is ServerTools => l !== undefined)),
    ...(lock ? { lock } : {}),
    failOn: plan.failOn,
    failOnUnavailable: plan.failOnUnavailable,
    ...(plan.flags.sandbox ? { sandboxed: true as const } : {}),
    exitCode: withLock(fleetExitCode(servers, plan.failOn, plan.failOnUnavailable), lock),
  };
  // Every entry's secrets, everywhere: a server may echo another's (a shared token) in what it says.
  return scrubSecrets(
    report,
    plan.entries.flatMap((e) => secretValues(e.headers ?? {}, e.env ?? {})).sort((a, b) => b.length - a.length),
  );
}

/**
 * The fleet's exit code: 1 when a server fails (or, with --fail-on should, has warnings); else, with
 * --fail-on-unavailable, 3 when a server could not be audited (could not start, unreachable, needs a secret, timed out,
 * an invalid entry); else 0. A skipped server never counts: it was disabled, or in another shard.
 */
export function fleetExitCode(
  servers: readonly Pick<FleetServerResult, 'outcome'>[],
  failOn: 'must' | 'should',
  failOnUnavailable: boolean,
): number {
  const has = (outcome: FleetOutcome) => servers.some((s) => s.outcome === outcome);
  if (has('failing') || (failOn === 'should' && has('warnings'))) return EXIT.failures;
  return failOnUnavailable && servers.some((s) => isUnavailable(s.outcome)) ? EXIT.unavailable : EXIT.ok;
}

/**
 * --lock: which servers changed since the lock (each one's audit compared its tools with its part, and is failing when
 * they differ) and which the lock holds that no file declares any more. --lock-write: the lock written from every
 * complete listing, and the servers to audit whose listing was not complete (not started, lost, cut short) left out.
 */
async function settleLock(
  plan: FleetPlan,
  servers: readonly FleetServerResult[],
  listings: readonly (Record<string, unknown>[] | undefined)[],
  startedAt: Date,
): Promise<FleetLockOutcome | undefined> {
  if (plan.lock) {
    const changed = servers.filter((s) => s.report?.lock?.status === 'changed').map((s) => s.name);
    return {
      mode: 'compare',
      file: plan.lock.file,
      changed,
      removed: serversRemoved(
        plan.lock.data,
        plan.entries.map((e) => e.name),
      ),
    };
  }
  if (plan.lockWrite === undefined) return undefined;
  const locked = plan.entries.flatMap((entry, i) => (listings[i] ? [{ name: entry.name, tools: listings[i]! }] : []));
  const notLocked = servers.filter((s, i) => !listings[i] && s.outcome !== 'skipped').map((s) => s.name);
  await writeFleetLock(plan.lockWrite, fleetLockFrom(locked, startedAt.toISOString()));
  return { mode: 'write', file: plan.lockWrite, locked: locked.map((l) => l.name), notLocked };
}

/**
 * The exit code with the lock applied: a server gone since the lock is a changed tool set (1), as a changed server is
 * (its outcome is failing already); a lock written without some server's tools cannot guard them (3, unless 1 already).
 */
function withLock(code: number, lock: FleetLockOutcome | undefined): number {
  if (lock?.mode === 'compare' && lock.removed.length > 0) return EXIT.failures;
  if (lock?.mode === 'write' && lock.notLocked.length > 0 && code === EXIT.ok) return EXIT.unavailable;
  return code;
}

/** A stdio entry whose working directory does not exist could not start (spawn would blame the command instead). */
function missingCwd(entry: FleetEntry, base: string): Classified | undefined {
  if (entry.transport !== 'stdio' || entry.cwd === undefined) return undefined;
  const dir = isAbsolute(entry.cwd) ? entry.cwd : resolve(base, entry.cwd);
  if (existsSync(dir) && statSync(dir).isDirectory()) return undefined;
  return { outcome: 'could-not-start', why: `its cwd ${entry.cwd} is not a folder that exists` };
}

function resultOf(
  entry: FleetEntry,
  classified: Classified,
  durationMs: number,
  report?: RunReport,
  reportFile?: string,
): FleetServerResult {
  return {
    name: entry.name,
    source: entry.source,
    transport: entry.transport,
    outcome: classified.outcome,
    why: classified.why,
    ...(report ? { protocolVersion: report.wire.protocolVersion, summary: report.summary } : {}),
    ...(report?.depth ? { depth: fleetDepth(report.depth, entry.name) } : {}),
    durationMs: Math.round(durationMs),
    ...(reportFile ? { reportFile } : {}),
    ...(report ? { report } : {}),
    ...(classified.stderr && classified.stderr.length > 0 ? { stderr: classified.stderr } : {}),
  };
}

/**
 * A server's depth as its audit reported it, with the flag that would go deeper as a fleet takes it (`server:tool`).
 */
export function fleetDepth(depth: AuditDepth, server: string): AuditDepth {
  const allow = /^--allow-tools (.+)$/.exec(depth.deeperWith ?? '');
  if (!allow) return depth;
  // A name the flag cannot carry (a comma splits it, a space needs quoting): all of this server's tools, then.
  if (/[,\s]/.test(server)) return { ...depth, deeperWith: '--allow-all-tools' };
  return {
    ...depth,
    deeperWith: `--allow-tools ${allow[1]!
      .split(',')
      .map((tool) => `${server}:${tool}`)
      .join(',')}`,
  };
}
