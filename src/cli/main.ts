import { BaselineError, readBaseline } from '../baseline/baseline.js';
import { LockError, readLock } from '../lock/tool-lock.js';
import { SnapshotFormatError } from '../snapshot/format.js';
import { killAllNow } from '../transport/children.js';
import { RequestGate } from '../transport/request-gate.js';
import { helpPointer, parseArgs, type CliOptions } from './args.js';
import { SHORT_TIMEOUT_MS } from './options/table.js';
import { UsageError } from './usage-error.js';
import { EXIT } from '../model/exit-codes.js';
import type { AuditInputs } from './commands.js';
import { prepareOutputDir } from './output-dir.js';
import { startTarget, type StartedTarget } from './start-target.js';
import { openAuditSandbox, requireSandbox } from './audit-sandbox.js';
import { packageVersion } from './version.js';

/**
 * Parses the command line, finds every usage error it can without the target, then starts the target before the
 * checks, reporters and schema tooling load: a spawned server boots while they do.
 */
export async function main(argv: string[]): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const version = packageVersion();
  let options: CliOptions | null;
  try {
    options = await parseArgs(argv, version);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`mcp-tools-conformance: ${error.message} (see ${helpPointer(argv)})\n`);
      return EXIT.usage;
    }
    throw error;
  }
  if (options === null) return EXIT.ok;
  if (options.timeoutMs < SHORT_TIMEOUT_MS) {
    process.stderr.write(
      `mcp-tools-conformance: note: --timeout ${options.timeoutMs} is under ${SHORT_TIMEOUT_MS} ms, shorter ` +
        `than most servers take to answer; an answer that comes later is reported as late (a skip), not as ` +
        `missing\n`,
    );
  }
  if (options.command === 'fleet') {
    try {
      // Through commands.js: the fleet shares most of its modules with the audit, and one chunk keeps the bundle few
      // files.
      return await (await import('./commands.js')).fleetCommand(options, version);
    } catch (error) {
      if (error instanceof UsageError) {
        process.stderr.write(`mcp-tools-conformance: ${error.message}\n`);
        return EXIT.usage;
      }
      throw error;
    }
  }
  if (options.command === 'client') {
    try {
      return await (await import('./client-command.js')).clientCommand(options, version, startedAt, started);
    } catch (error) {
      if (error instanceof UsageError || error instanceof BaselineError) {
        process.stderr.write(`mcp-tools-conformance: ${error.message}\n`);
        return EXIT.usage;
      }
      throw error;
    }
  }

  // Selecting checks needs the registry; it is loaded first only when the selection can be wrong.
  let commands: typeof import('./commands.js') | undefined;
  let checks: ReturnType<(typeof import('./commands.js'))['selectedChecks']> | undefined;
  if (options.list || options.checks.length > 0 || options.excludeChecks.length > 0) {
    commands = await import('./commands.js');
    checks = commands.selectedChecks(options);
    if (checks.unmatched.length > 0) {
      process.stderr.write(
        `mcp-tools-conformance: no check matches ${checks.unmatched.map((u) => JSON.stringify(u)).join(', ')} ` +
          `(see --list)\n`,
      );
      return EXIT.usage;
    }
    if (checks.selected.length === 0) {
      process.stderr.write(
        'mcp-tools-conformance: no check is left to run: --exclude-checks removes every check --checks selects ' +
          '(see --list)\n',
      );
      return EXIT.usage;
    }
    if (options.list) return commands.listChecks(checks.selected);
  }

  let early: StartedTarget | undefined;
  try {
    if (options.sandbox) await requireSandbox();
    if (options.command === 'run' || options.command === 'baseline')
      await prepareOutputDir(options.outputDir, options.reporters);
    const inputs = await auditInputs(options);
    if (options.revisions) {
      commands ??= await import('./commands.js');
      checks ??= commands.selectedChecks(options);
      return await commands.revisionsCommand(options, version, { checks: checks.selected, inputs, startedAt, started });
    }
    const deadline = Date.now() + options.maxDurationMs;
    const rate = options.maxRps === undefined ? {} : { maxRps: options.maxRps };
    // Only the audit is bounded by --max-duration; snapshot and lock take as long as the walk does.
    const gate = new RequestGate(
      options.command === 'run' || options.command === 'baseline' ? { deadline, ...rate } : rate,
    );
    early = await startTarget(options, version, gate, undefined, await openAuditSandbox(options));
    commands ??= await import('./commands.js');
    checks ??= commands.selectedChecks(options);
    return await commands.runCommand(options, version, early, {
      checks: checks.selected,
      inputs,
      startedAt,
      started,
      deadline,
    });
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof SnapshotFormatError ||
      error instanceof BaselineError ||
      error instanceof LockError
    ) {
      process.stderr.write(`mcp-tools-conformance: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  } finally {
    await early?.target.transport.close();
    await early?.sandbox?.close();
  }
}

/** The --baseline and --lock files of an audit, read (and their errors reported) before the target starts. */
async function auditInputs(options: CliOptions): Promise<AuditInputs> {
  if (options.command !== 'run') return {};
  return {
    ...(options.baseline ? { known: { file: options.baseline, data: await readBaseline(options.baseline) } } : {}),
    ...(options.lock ? { lock: { file: options.lock, data: await readLock(options.lock) } } : {}),
  };
}

export function installSignalHandlers(): void {
  // 128 + the signal's number, as shells report it: 130 for SIGINT (Ctrl-C), 143 for SIGTERM.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      killAllNow();
      process.stderr.write(`\nmcp-tools-conformance: interrupted (${signal})\n`);
      process.exit(code);
    });
  }
  // A closed pipe (`… | head`) must not end the audit: reports are still written.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.on('uncaughtException', (error) => {
    killAllNow();
    process.stderr.write(`mcp-tools-conformance: internal error: ${error.stack ?? error.message}\n`);
    process.exit(EXIT.unavailable);
  });
}
