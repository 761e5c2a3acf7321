import { readBaseline } from '../baseline/baseline.js';
import { runClientAudit } from '../client-mode/audit/audit.js';
import { EXIT } from '../model/exit-codes.js';
import { selectChecks } from '../runner/registry.js';
import { CLIENT_CHECKS } from '../../suites/client/index.js';
import type { CliOptions } from './args.js';
import { printCatalog } from './check-list.js';
import { cliScript } from './cli-script.js';
import { prepareOutputDir } from './output-dir.js';
import { reportersOf } from './reporters.js';
import { abortLines } from './abort-lines.js';

/** Single-quotes a word for a POSIX shell (the stdio server command line a driver may run through `sh -c`). */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** `client`: audits the --command client against the scripted server; exit codes as for a server audit. */
export async function clientCommand(
  options: CliOptions,
  version: string,
  startedAt: Date,
  started: number,
): Promise<number> {
  const selection = selectChecks(CLIENT_CHECKS, options.checks, options.excludeChecks);
  if (selection.unmatched.length > 0) {
    process.stderr.write(
      `mcp-tools-conformance: no client check matches ` +
        `${selection.unmatched.map((u) => JSON.stringify(u)).join(', ')} (see client --list)\n`,
    );
    return EXIT.usage;
  }
  if (options.list) {
    printCatalog(selection.selected, process.stdout);
    return EXIT.ok;
  }
  const client = options.client!;
  await prepareOutputDir(options.outputDir, options.reporters);
  const baseline = options.baseline
    ? { file: options.baseline, data: await readBaseline(options.baseline) }
    : undefined;
  const handle = reportersOf(options, () => undefined);
  const script = cliScript();
  const report = await runClientAudit(
    {
      toolVersion: version,
      command: client.command,
      transport: client.transport,
      scenarios: client.scenarios,
      serverCommand: (dir) => [process.execPath, script, 'scripted-server', '--session', dir].map(shellQuote).join(' '),
      timeoutMs: options.timeoutMs,
      maxDurationMs: options.maxDurationMs,
      ...(baseline ? { baseline } : {}),
      failOn: options.failOn,
      failOnStale: options.failOnStale,
      secrets: [],
      startedAt,
      started,
      deadline: Date.now() + options.maxDurationMs,
    },
    selection.selected,
    handle,
  );
  // A client that could not be started gets its reason and hint on stderr (a program not on PATH), as a --stdio server
  // does.
  const notStarted = report.client?.exit.kind === 'not-started';
  if (notStarted || !options.reporters.includes('console'))
    for (const line of abortLines(report, !notStarted)) process.stderr.write(`${line}\n`);
  return report.exitCode!;
}
