import yargs from 'yargs';
import { REPORTER_NAMES, isReporterName, type ReporterName } from '../report/index.js';
import type { SpecChoice } from '../protocol/negotiate.js';
import { parsePatterns } from '../runner/registry.js';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../property/seeds.js';
import { parseReplayToken, type ReplayTarget } from '../property/replay.js';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliOptions {
  command: 'run' | 'snapshot';
  stdio?: string;
  fromSnapshot?: string;
  url?: string;
  headers: Record<string, string>;
  spec: SpecChoice;
  checks: string[];
  excludeChecks: string[];
  list: boolean;
  reporters: ReporterName[];
  outputDir: string;
  failOn: 'must' | 'should';
  timeoutMs: number;
  maxDurationMs: number;
  concurrency: number;
  verbose: boolean;
  junitProperties: boolean;
  /** Tools that may be called besides those annotated readOnlyHint: true; 'all' allows every tool. */
  allowTools: string[] | 'all';
  /** Property-based checks: the fast-check seed, cases per tool and property, and one case to replay. */
  seed: number;
  runs: number;
  replay?: ReplayTarget;
}

const MAX_SEED = 0x7fffffff;
const MAX_RUNS = 100_000;

export const EXIT = { ok: 0, failures: 1, usage: 2, unavailable: 3 } as const;

const EPILOG = `Exit codes:
  0  no failures (per --fail-on)
  1  conformance failures
  2  usage or configuration error
  3  the target could not be audited (did not start, unreachable, stopped answering)

With neither --stdio nor --url, the bundled reference server is audited over stdio.`;

export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header must look like "Name: value", got ${JSON.stringify(raw)}`);
  const value = raw.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw new UsageError(`--header value for ${name} contains a line break or NUL`);
  return [name, value];
}

/** Returns null when --help or --version was printed. */
export async function parseArgs(argv: string[], version: string): Promise<CliOptions | null> {
  const parser = yargs(argv)
    .scriptName('mcp-tools-conformance')
    .usage('$0 [run] (--stdio "<command line>" | --url <http(s)://…>) [options]')
    .command(['run', '$0'], 'audit an MCP server (the default command)')
    .command('snapshot', 'print the complete tool list (all pages, with the wire version) as JSON, for --from-snapshot')
    .option('stdio', { type: 'string', describe: 'spawn the target and talk newline-delimited JSON-RPC over its stdin/stdout' })
    .option('url', { type: 'string', describe: 'Streamable HTTP MCP endpoint of the target' })
    .option('from-snapshot', { type: 'string', describe: 'run every static check on a saved snapshot instead of a live target' })
    .option('header', { type: 'string', array: true, describe: 'extra HTTP header "Name: value" (repeatable; values never reach reports)' })
    .option('spec', { choices: ['auto', '2026-07-28', '2025-11-25'] as const, default: 'auto' as const, describe: 'wire version: probe (auto) or force one' })
    .option('checks', { type: 'string', array: true, describe: 'only run these check IDs or globs (comma-separated or repeated)' })
    .option('exclude-checks', { type: 'string', array: true, describe: 'skip these check IDs or globs' })
    .option('list', { type: 'boolean', default: false, describe: 'print the catalog of checks and exit' })
    .option('reporter', { type: 'string', default: 'console,json,junit', describe: `comma-separated: ${REPORTER_NAMES.join(', ')}` })
    .option('output-dir', { type: 'string', default: 'reports', describe: 'folder for report.json and junit.xml' })
    .option('fail-on', { choices: ['must', 'should'] as const, default: 'must' as const, describe: 'which violations make the exit code 1' })
    .option('timeout', { type: 'number', default: 10_000, describe: 'per-request timeout in ms' })
    .option('max-duration', { type: 'number', default: 300_000, describe: 'budget for the whole run in ms' })
    .option('concurrency', { type: 'number', default: 4, describe: 'checks run at once' })
    .option('junit-properties', {
      type: 'boolean',
      default: false,
      describe: 'put requirement, keyword and specRef in per-testcase <properties> (not valid under the Jenkins xUnit XSD)',
    })
    .option('allow-tools', {
      type: 'string',
      array: true,
      describe: 'also call these tools (comma-separated or repeated); by default only tools annotated readOnlyHint: true are called',
    })
    .option('allow-all-tools', { type: 'boolean', default: false, describe: 'call any tool, including ones that may have side effects' })
    .option('seed', { type: 'number', default: DEFAULT_SEED, describe: `property-based checks: fast-check seed, 0…${MAX_SEED} (fixed by default, so audits repeat)` })
    .option('runs', { type: 'number', default: DEFAULT_RUNS, describe: 'property-based checks: generated cases per tool and property' })
    .option('replay', { type: 'string', describe: 'property-based checks: re-run one case, <tool>@<path> as printed in a replay line' })
    .option('verbose', { type: 'boolean', default: false, describe: 'print evidence for failures on the console' })
    .conflicts('stdio', 'url')
    .conflicts('from-snapshot', ['stdio', 'url'])
    .strict()
    .version(version)
    .alias('h', 'help')
    .epilog(EPILOG)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      throw new UsageError(error?.message ?? message);
    });
  const args = await parser.parseAsync();
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return null;

  const [first, ...others] = args._.map(String);
  const command = first === 'snapshot' ? 'snapshot' : 'run';
  const positional = first === 'snapshot' || first === 'run' ? others : args._.map(String);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}`);
  if (command === 'snapshot' && args['from-snapshot'] !== undefined) throw new UsageError('snapshot takes a live target (--stdio or --url), not --from-snapshot');
  const reporters = String(args.reporter).split(',').map((r) => r.trim()).filter(Boolean);
  for (const r of reporters) if (!isReporterName(r)) throw new UsageError(`unknown reporter "${r}" (choose from ${REPORTER_NAMES.join(', ')})`);
  for (const [flag, value] of [['--timeout', args.timeout], ['--max-duration', args['max-duration']], ['--concurrency', args.concurrency]] as const) {
    if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} must be a positive number`);
  }
  if (!Number.isInteger(args.seed) || args.seed < 0 || args.seed > MAX_SEED) throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED}`);
  if (!Number.isInteger(args.runs) || args.runs < 1 || args.runs > MAX_RUNS) throw new UsageError(`--runs must be an integer from 1 to ${MAX_RUNS}`);
  const replay = args.replay === undefined ? undefined : parseReplayToken(String(args.replay));
  if (args.replay !== undefined && replay === undefined) throw new UsageError('--replay must look like <tool>@<path>, e.g. get_weather@12:0:1, as printed in a replay line');
  if (args.stdio !== undefined && args.stdio.trim() === '') throw new UsageError('--stdio needs a command line');
  if (args.url !== undefined && !/^https?:\/\//i.test(args.url)) throw new UsageError('--url must start with http:// or https://');
  const headers: Record<string, string> = {};
  for (const raw of args.header ?? []) {
    const [name, value] = parseHeader(String(raw));
    headers[name] = value;
  }
  return {
    command,
    fromSnapshot: args['from-snapshot'],
    stdio: args.stdio,
    url: args.url,
    headers,
    spec: args.spec as SpecChoice,
    checks: parsePatterns(args.checks?.map(String)),
    excludeChecks: parsePatterns(args['exclude-checks']?.map(String)),
    list: Boolean(args.list),
    reporters: reporters as ReporterName[],
    outputDir: String(args['output-dir']),
    failOn: args['fail-on'] as 'must' | 'should',
    timeoutMs: args.timeout,
    maxDurationMs: args['max-duration'],
    concurrency: Math.floor(args.concurrency),
    verbose: Boolean(args.verbose),
    junitProperties: Boolean(args['junit-properties']),
    allowTools: args['allow-all-tools'] ? 'all' : parsePatterns(args['allow-tools']?.map(String)),
    seed: args.seed,
    runs: args.runs,
    ...(replay ? { replay } : {}),
  };
}
