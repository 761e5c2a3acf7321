import { requireSandbox } from './audit-sandbox.js';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { discoverFleetFiles, fleetFileCandidates, readFleetFiles } from '../fleet/config/index.js';
import { running } from '../fleet/run/audit-pool.js';
import { readFleetLock, type FleetLockFile } from '../fleet/lock.js';
import { LockError } from '../lock/tool-lock.js';
import type { ServerAuditFlags } from '../fleet/run/plan.js';
import { runFleet, type FleetCounts, type FleetProgress } from '../fleet/run/run-fleet.js';
import { previousDurations } from '../fleet/run/start-order.js';
import { EXIT } from '../model/exit-codes.js';
import { selectChecks } from '../runner/registry.js';
import { ALL_CHECKS } from '../../suites/index.js';
import { colorEnabled, palette } from '../report/color.js';
import { fleetConsoleLines, outcomeLabel } from '../fleet/report/console.js';
import { FLEET_JSON_FILE, writeFleetFiles } from '../fleet/report/files.js';
import { FILE_REPORTER_NAMES } from '../report/names.js';
import { formatDuration } from '../report/duration.js';
import { terminalInline } from '../report/text-safety.js';
import type { CliOptions } from './args.js';
import { UsageError } from './usage-error.js';
import { cliScript } from './cli-script.js';
import { prepareOutputDir } from './output-dir.js';

/**
 * `fleet`: reads the host files (and, with --discover, finds them), audits every server as `run` would, in its own
 * process, --jobs at a time, and writes one report. A file that cannot be read is a configuration error (exit 2)
 * before any server starts: a fleet audited without one of its files would look complete and is not.
 */
export async function fleetCommand(options: CliOptions, version: string): Promise<number> {
  const fleet = options.fleet!;
  const out = process.stdout;
  if (options.checks.length > 0 || options.excludeChecks.length > 0) {
    const { selected, unmatched } = selectChecks(ALL_CHECKS, options.checks, options.excludeChecks);
    if (unmatched.length > 0)
      throw new UsageError(`no check matches ${unmatched.map((u) => JSON.stringify(u)).join(', ')} (see --list)`);
    if (selected.length === 0)
      throw new UsageError('no check is left to run: --exclude-checks removes every check --checks selects');
  }
  if (options.sandbox) await requireSandbox();
  const where = { platform: process.platform, home: homedir(), cwd: process.cwd(), env: process.env };
  const found = fleet.discover ? discoverFleetFiles({ ...where, exists: existsSync }) : [];
  if (fleet.discover) {
    const looked = () =>
      fleetFileCandidates(where)
        .map((c) => `  ${c.path}  (${c.host}, ${c.scope})\n`)
        .join('');
    out.write(
      found.length > 0
        ? `Host config files found:\n${found.map((f) => `  ${f}\n`).join('')}`
        : `No host config file found. Looked in:\n${looked()}`,
    );
    if (!fleet.audit && found.length > 0)
      out.write('Audit their servers with: mcp-tools-conformance fleet --discover --audit\n');
    if (!fleet.audit && fleet.files.length === 0) return EXIT.ok;
  }
  // Named files are always audited; the files found only with --audit.
  const files = [...new Set([...fleet.files, ...(fleet.audit ? found : [])])];
  if (files.length === 0) {
    process.stderr.write('mcp-tools-conformance: no host config file to audit\n');
    return EXIT.usage;
  }
  const { entries, problems } = readFleetFiles(files, process.env, undefined, { cwd: process.cwd() });
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`mcp-tools-conformance: ${problem}\n`);
    return EXIT.usage;
  }
  if (entries.length === 0) {
    process.stderr.write(`mcp-tools-conformance: no server in ${files.join(', ')}\n`);
    return EXIT.usage;
  }
  const unknown = Object.keys(fleet.allowTools).filter((name) => !entries.some((e) => e.name === name));
  if (unknown.length > 0) {
    process.stderr.write(
      `mcp-tools-conformance: --allow-tools names no server of the fleet: ${unknown.join(', ')} (servers: ` +
        `${entries.map((e) => e.name).join(', ')})\n`,
    );
    return EXIT.usage;
  }
  const lock = options.lock !== undefined ? { file: options.lock, data: await fleetLockOf(options.lock) } : undefined;
  if (fleet.lockWrite !== undefined) {
    const folder = dirname(resolve(fleet.lockWrite));
    if (!existsSync(folder) || !statSync(folder).isDirectory())
      throw new UsageError(`--lock-write ${fleet.lockWrite}: ${folder} is not a folder that exists`);
  }
  await prepareOutputDir(options.outputDir, FILE_REPORTER_NAMES);
  const previousMs = await previousDurations(join(options.outputDir, FLEET_JSON_FILE));

  const paint = palette(options.color ?? colorEnabled(out));
  const toConsole = options.reporters.includes('console');
  const status = toConsole ? statusLine(out, paint) : {};
  const report = await withSignalsPassedOn(() =>
    runFleet(
      {
        toolVersion: version,
        files,
        entries,
        flags: auditFlags(options),
        maxDurationMs: options.maxDurationMs,
        jobs: fleet.jobs,
        ...(fleet.shard ? { shard: fleet.shard } : {}),
        failOn: options.failOn,
        failOnUnavailable: fleet.failOnUnavailable,
        outputDir: options.outputDir,
        cli: cliScript(),
        cwd: process.cwd(),
        ...(lock ? { lock } : {}),
        ...(fleet.lockWrite !== undefined ? { lockWrite: fleet.lockWrite } : {}),
        previousMs,
      },
      status,
    ),
  );
  const written = await writeFleetFiles(report, options.outputDir, options.reporters, {
    junitProperties: options.junitProperties,
    ...(options.sarifArtifact !== undefined ? { sarifArtifact: options.sarifArtifact } : {}),
  });
  if (toConsole)
    out.write(`${out.isTTY === true ? '\r\u001b[2K' : ''}\n${fleetConsoleLines(report, paint, written).join('\n')}\n`);
  return report.exitCode;
}

/**
 * --lock: the fleet lock; one that cannot be read, or is not a fleet lock, is a usage error before any server starts.
 */
async function fleetLockOf(file: string): Promise<FleetLockFile> {
  try {
    return await readFleetLock(file);
  } catch (error) {
    if (error instanceof LockError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The flags of a single audit that every server's audit gets: the limits, checks and safety options of this command.
 */
function auditFlags(options: CliOptions): ServerAuditFlags {
  const common: string[] = [
    '--protocol-version',
    options.protocolVersion,
    '--timeout',
    String(options.timeoutMs),
    '--max-duration',
    String(options.maxDurationMs),
    '--max-message-bytes',
    String(options.maxMessageBytes),
    '--concurrency',
    String(options.concurrency),
    '--fail-on',
    options.failOn,
    '--seed',
    String(options.seed),
    '--runs',
    String(options.runs),
  ];
  if (options.maxRps !== undefined) common.push('--max-rps', String(options.maxRps));
  if (options.checks.length > 0) common.push('--checks', options.checks.join(','));
  if (options.excludeChecks.length > 0) common.push('--exclude-checks', options.excludeChecks.join(','));
  if (options.skipTools.length > 0) common.push('--skip-tools', options.skipTools.join(','));
  if (options.allowTools === 'all') common.push('--allow-all-tools');
  if (options.hosts) {
    common.push('--hosts', options.hosts.names.join(','));
    if (options.hosts.failOn.length > 0) common.push('--fail-on-host', options.hosts.failOn.join(','));
  }
  // Each server's own report.json, and its report.html when the fleet's dashboard will link to it.
  const reporters = options.reporters.includes('html') ? 'json,html' : 'json';
  return {
    common,
    allowTools: options.fleet!.allowTools,
    reporters,
    ...(options.httpConnectionsGiven !== undefined ? { httpConnections: options.httpConnectionsGiven } : {}),
    ...(options.sandbox ? { sandbox: ['--sandbox', ...(options.sandbox.network ? ['--sandbox-network'] : [])] } : {}),
    ...(options.hosts ? { hosts: true } : {}),
  };
}

/**
 * One line per server as it finishes; on a terminal, below them, the status line (done / running / left), redrawn
 * in place.
 */
function statusLine(out: NodeJS.WriteStream, paint: ReturnType<typeof palette>): FleetProgress {
  const tty = out.isTTY === true;
  const draw = (counts: FleetCounts) =>
    tty &&
    out.write(
      `\r\u001b[2K${paint.dim(`fleet: ${counts.done} done · ${counts.running} running · ${counts.left} left`)}`,
    );
  return {
    started: (_name, counts) => draw(counts),
    finished: (result, counts) => {
      if (tty) out.write('\r\u001b[2K');
      out.write(
        `${outcomeLabel(result.outcome, paint)} ${terminalInline(result.name, 60)} (` +
          `${formatDuration(result.durationMs)})\n`,
      );
      draw(counts);
    },
  };
}

/**
 * Ctrl-C reaches every audit process on a terminal (one process group); a SIGINT or SIGTERM sent to the fleet alone is
 * passed on, so that each audit kills its own server before the fleet exits.
 */
async function withSignalsPassedOn<T>(work: () => Promise<T>): Promise<T> {
  const passOn = (signal: NodeJS.Signals) => {
    for (const child of running) child.kill(signal);
  };
  process.prependListener('SIGINT', passOn);
  process.prependListener('SIGTERM', passOn);
  try {
    return await work();
  } finally {
    process.off('SIGINT', passOn);
    process.off('SIGTERM', passOn);
  }
}
