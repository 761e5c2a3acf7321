import { availableParallelism } from 'node:os';
import parser from 'yargs-parser';
import { REPORTER_NAMES, isReporterName, type ReporterName } from '../report/names.js';
import type { SpecChoice } from '../protocol/negotiate.js';
import { isWire, WIRES, type Wire } from '../core/wire.js';
import { globToRegExp, parsePatterns } from '../runner/registry.js';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../property/seeds.js';
import { parseReplayToken, type ReplayTarget } from '../property/replay.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../transport/sequence.js';
import { SCENARIOS, type Scenario } from '../client-mode/scenarios.js';
import { CONFIG_FILE, ConfigError, configFileLoader, configLayers, PACKAGE_KEY, TARGET_OPTIONS, targetOnCommandLine, type ConfigLayers } from './config-file.js';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliOptions {
  command: 'run' | 'snapshot' | 'baseline' | 'lock' | 'client' | 'fleet';
  /** The fleet command: the host files, where to look for more, how many audits at once and which slice. */
  fleet?: FleetOptions;
  /** --cwd: the working directory of a --stdio target (default: ours). */
  cwd?: string;
  /** --snapshot-out: also save the audit's own tool listing as a snapshot there (what --from-snapshot reads). */
  snapshotOut?: string;
  /** The client command: the client under test, the transport it is offered and the scenarios selected. */
  client?: { command: string; transport: 'http' | 'stdio'; scenarios: Scenario[] };
  stdio?: string;
  fromSnapshot?: string;
  url?: string;
  headers: Record<string, string>;
  /** --env NAME=value: added to the stdio target's environment; values never reach a report. */
  env: Record<string, string>;
  protocolVersion: SpecChoice;
  /** --revisions: one audit per revision, newest first, in one report with the matrix of checks by revision. */
  revisions?: Wire[];
  checks: string[];
  excludeChecks: string[];
  list: boolean;
  reporters: ReporterName[];
  outputDir: string;
  failOn: 'must' | 'should';
  /** With --baseline: stale entries (listed, now passing) fail the run too. */
  failOnStale: boolean;
  /** --color / --no-color; undefined: decided by the terminal and NO_COLOR/FORCE_COLOR. */
  color?: boolean;
  /** --reference-server: the bundled reference server was asked for by name. */
  referenceServer: boolean;
  timeoutMs: number;
  maxDurationMs: number;
  /** Largest message accepted from the target; a bigger one ends the audit as the target's failure. */
  maxMessageBytes: number;
  /** Requests per second over every connection of the run; undefined = no cap. */
  maxRps?: number;
  concurrency: number;
  /**
   * A --url target's kept-alive Streamable HTTP connections, over which tool calls are spread: --http-connections, else
   * --concurrency (at most MAX_HTTP_CONNECTIONS). 1 for any other target.
   */
  httpConnections: number;
  /** --http-connections as given, if it was: the deprecated HTTP+SSE transport's POSTs use that many, else one. */
  httpConnectionsGiven?: number;
  verbose: boolean;
  /** Console: no line per check, only the summary and the findings. */
  quiet: boolean;
  junitProperties: boolean;
  /** Tools that may be called besides those annotated readOnlyHint: true; 'all' allows every tool. */
  allowTools: string[] | 'all';
  /** Tools never called, whatever their annotations or --allow-tools say. */
  skipTools: string[];
  /** --sandbox: a --stdio target runs in a throwaway sandbox, every tool is callable, and each call's file effects are recorded. */
  sandbox?: { network: boolean };
  /** A tool whose call changes the server's tool set (list_changed checks); it is called twice, so the change is undone. */
  listChangedTrigger?: { name: string; arguments: Record<string, unknown> };
  /** SARIF: the repository-relative path findings are filed under. */
  sarifArtifact?: string;
  /** run: compare with this baseline; baseline --write: the file to write. */
  baseline?: string;
  /** run: compare the tool set with this lock; lock --write: the file to write. */
  lock?: string;
  /** Property-based checks: the fast-check seed, cases per tool and property, and one case to replay. */
  seed: number;
  runs: number;
  replay?: ReplayTarget;
}

/** The fleet command's own options; the safety and limit options are the audit's, passed to each server's. */
export interface FleetOptions {
  files: string[];
  /** --discover: look for host files in the usual places; they are audited only with --audit. */
  discover: boolean;
  audit: boolean;
  jobs: number;
  /** --shard i/n: the i-th (1-based) of n slices of the fleet, by entry order. */
  shard?: { index: number; count: number };
  failOnUnavailable: boolean;
  /** --allow-tools server:tool, by server (a fleet names the server of every tool it allows). */
  allowTools: Record<string, string[]>;
  /** --lock-write: write the fleet lock (each server's tools, by server) to this file. --lock compares with one. */
  lockWrite?: string;
}

const MAX_SEED = 0x7fffffff;
/** The longest delay Node's timers take: a longer one fires after 1 ms. */
const MAX_TIMER_MS = 0x7fffffff;
/** Below this --timeout, the run starts with a notice: few servers answer that fast. */
export const SHORT_TIMEOUT_MS = 100;
const MAX_RUNS = 100_000;
const MAX_HTTP_CONNECTIONS = 32;
/** --timeout when not given. */
export const DEFAULT_TIMEOUT_MS = 10_000;


const EXIT_CODES = `Exit codes:
  0  no failures (per --fail-on)
  1  conformance failures
  2  usage or configuration error
  3  the target could not be audited (did not start, unreachable, stopped answering)
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM; the target is killed, no report is written`;

const EPILOG = `${EXIT_CODES}

Name a target with --stdio, --url or --from-snapshot; --reference-server audits the bundled reference server \
(also what runs on a terminal when no target is named; without a terminal, e.g. in CI, naming none is a usage error).

The options of the other commands: mcp-tools-conformance <command> --help.`;

/** What each command's --help ends with. */
const EPILOGS: Readonly<Record<Command, string>> = {
  run: EPILOG,
  snapshot: EPILOG,
  baseline: EPILOG,
  lock: EPILOG,
  client: `${EXIT_CODES.replace('the target could not be audited (did not start, unreachable, stopped answering)', 'the client could not be audited (hung, crashed, not started)')}

The client gets the scripted server's URL as its last argument (also in MCP_CONFORMANCE_URL), or over stdio \
the command that starts it in MCP_CONFORMANCE_SERVER_COMMAND; see README "Audit your client".`,
  fleet: `${EXIT_CODES.replace('1  conformance failures', '1  a server is failing').replace('the target could not be audited (did not start, unreachable, stopped answering)', 'with --fail-on-unavailable: a server could not be audited')}

Each server's target, env, cwd and headers come from its host file: --stdio, --url, --env, --header and the other \
options of one target are errors here. --allow-tools names the server of each tool: server:tool.`,
};

export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header must look like "Name: value", got ${JSON.stringify(raw)}`);
  const value = raw.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw new UsageError(`--header value for ${name} contains a line break or NUL`);
  return [name, value];
}

/** Every option, as yargs declares it; the quick parse below derives yargs-parser's settings from the same table. */
const OPTIONS = {
  stdio: { type: 'string', describe: 'spawn the target and talk newline-delimited JSON-RPC over its stdin/stdout' },
  url: { type: 'string', describe: 'Streamable HTTP MCP endpoint of the target' },
  'from-snapshot': { type: 'string', describe: 'run every static check on a saved snapshot instead of a live target' },
  header: { type: 'string', array: true, describe: 'extra HTTP header "Name: value" (repeatable; values never reach reports)' },
  'protocol-version': {
    choices: ['auto', ...WIRES] as const,
    default: 'auto' as const,
    describe: 'revision to offer: auto probes server/discover, then initialize with the newest; an initialize revision is offered as it is; 2026-07-28 is discover only',
  },
  revisions: {
    type: 'string',
    array: true,
    describe: `all, or revisions (comma-separated or repeated: ${WIRES.join(', ')}): one audit per revision, each offering it, in one report with a matrix of checks by revision; a revision the target does not take is reported as not supported`,
  },
  checks: { type: 'string', array: true, describe: 'only run these check IDs or globs (comma-separated or repeated)' },
  'exclude-checks': { type: 'string', array: true, describe: 'skip these check IDs or globs' },
  list: { type: 'boolean', default: false, describe: 'print the catalog of checks and exit' },
  reporter: { type: 'string', default: 'console,json,junit', describe: `comma-separated: ${REPORTER_NAMES.join(', ')} (fleet: all but github)` },
  'output-dir': { type: 'string', default: 'reports', describe: 'folder for the report files (report.json, junit.xml, report.html)' },
  'fail-on': { type: 'string', default: 'must', describe: 'must or should (any case): which violations make the exit code 1' },
  'fail-on-stale': { type: 'boolean', default: false, describe: 'with --baseline: entries that no longer fail (stale) make the exit code 1 too' },
  color: { type: 'boolean', describe: 'colours on the console: --color forces them, --no-color turns them off (default: on a TTY, unless NO_COLOR is set)' },
  'reference-server': { type: 'boolean', describe: 'audit the bundled reference server over stdio (what runs when no target is named on a terminal)' },
  timeout: { type: 'number', default: DEFAULT_TIMEOUT_MS, describe: 'per-request timeout in ms' },
  'max-duration': { type: 'number', default: 300_000, describe: 'budget for the whole run in ms (fleet: for each server)' },
  'max-message-bytes': {
    type: 'number',
    default: DEFAULT_MAX_MESSAGE_BYTES,
    describe: 'largest message accepted from the target (a stdout line, an HTTP body, an SSE event); a bigger one is a target failure',
  },
  'max-rps': {
    type: 'number',
    describe: 'at most this many requests per second over all connections (fractional allowed: 0.5 = one every 2 s); default: no cap',
  },
  concurrency: { type: 'number', default: 4, describe: 'checks run at once' },
  'http-connections': {
    type: 'number',
    describe: `--url: kept-alive connections to the target (1-${MAX_HTTP_CONNECTIONS}; default: --concurrency); tool calls are spread over them, list walks and everything else stay on the first (1 for a server that needs every request on one connection)`,
  },
  'junit-properties': {
    type: 'boolean',
    default: false,
    describe: 'put requirement, keyword and specRef in per-testcase <properties> (not valid under the Jenkins xUnit XSD)',
  },
  'allow-tools': {
    type: 'string',
    array: true,
    describe: 'also call these tools (comma-separated or repeated; fleet: server:tool); by default only tools annotated readOnlyHint: true are called',
  },
  'allow-all-tools': { type: 'boolean', default: false, describe: 'call any tool, including ones that may have side effects (on your real data)' },
  sandbox: {
    type: 'boolean',
    default: false,
    describe: 'stdio targets on Linux: run the server in a throwaway bubblewrap sandbox (writes land in a copy-on-write layer, no network), call every tool and report what each call changed',
  },
  'sandbox-network': { type: 'boolean', default: false, describe: 'with --sandbox: let the server reach the network (external side effects become possible)' },
  'skip-tools': {
    type: 'string',
    array: true,
    describe: 'never call these tools, read-only or allowed (comma-separated or repeated): for tools that are slow or costly',
  },
  'list-changed-trigger': {
    type: 'string',
    describe: 'a tool whose call changes the tool set; called twice (change, then undo) to test notifications/tools/list_changed',
  },
  env: {
    type: 'string',
    array: true,
    describe: 'NAME=value added to the --stdio target\'s environment (repeatable); values are kept out of every report',
  },
  baseline: {
    type: 'string',
    describe: `known failures: only failures it does not list fail the run; entries that now pass are reported as stale (baseline --write creates it; default file ${'mcp-conformance-baseline.json'})`,
  },
  lock: {
    type: 'string',
    describe: 'tool-set lock: the run fails when a tool was added, removed or changed since the lock was written (lock --write creates it; fleet: a fleet lock, written by fleet --lock-write)',
  },
  'lock-write': { type: 'string', describe: "fleet: write a fleet lock, each server's tools by server name, to this file (compare with it: fleet --lock <file>)" },
  write: { type: 'string', describe: 'with the baseline or lock command: the file to write (baseline --write <file>; default: --baseline/--lock, else the default file)' },
  'sarif-artifact': {
    type: 'string',
    describe: 'repository-relative path the SARIF findings are filed under (code scanning needs one; default "mcp-server")',
  },
  'list-changed-args': { type: 'string', describe: 'JSON object of arguments for --list-changed-trigger (default {})' },
  seed: { type: 'number', default: DEFAULT_SEED, describe: `property-based checks: fast-check seed, 0…${MAX_SEED} (fixed by default, so audits repeat)` },
  runs: { type: 'number', default: DEFAULT_RUNS, describe: 'property-based checks: generated cases per tool and property' },
  replay: { type: 'string', describe: 'property-based checks: re-run one case, <tool>@<path> as printed in a replay line' },
  verbose: { type: 'boolean', default: false, describe: 'console: pass messages, every skip on its own line, and the JSON of each exchange' },
  quiet: { type: 'boolean', default: false, describe: 'console: failures only (no line per check; the summary and the list of fails, warnings and errors)' },
  command: { type: 'string', describe: 'client: the command line of the client under test (its driver; see README "Client mode")' },
  scenario: { type: 'string', array: true, describe: `client: only these scenarios (names or globs, comma-separated or repeated): ${SCENARIOS.join(', ')}` },
  transport: { choices: ['http', 'stdio'] as const, describe: 'client: how the client reaches the scripted server (default http)' },
  cwd: { type: 'string', describe: 'working directory of the --stdio target (default: the current one)' },
  'snapshot-out': {
    type: 'string',
    describe: 'also save the tool listing the audit walked as a snapshot in this file (for --from-snapshot; secrets scrubbed)',
  },
  discover: { type: 'boolean', default: false, describe: 'fleet: list the host config files found in the usual user and project places (audited only with --audit)' },
  audit: { type: 'boolean', default: false, describe: 'fleet --discover: audit the servers of the files found' },
  jobs: { type: 'number', describe: 'fleet: servers audited at once (default: the number of cores)' },
  shard: { type: 'string', describe: 'fleet: i/n, audit only the i-th of n slices of the servers, by their order in the files (for a CI matrix)' },
  'fail-on-unavailable': {
    type: 'boolean',
    default: false,
    describe: 'fleet: a server that could not be audited (could not start, unreachable, needs a secret, timed out, invalid entry) makes the exit code 3',
  },
  config: {
    type: 'string',
    describe: `JSON file of options (default: ${CONFIG_FILE} when present, else package.json's "${PACKAGE_KEY}" object); flags override it`,
  },
} as const satisfies Record<string, OptionSpec>;

interface OptionSpec {
  type?: 'string' | 'number' | 'boolean';
  array?: boolean;
  choices?: readonly string[];
  default?: unknown;
  describe: string;
}

/** Options that cannot be given together (yargs' .conflicts). */
const CONFLICTS: readonly (readonly [string, readonly string[]])[] = [
  ['stdio', ['url']],
  ['from-snapshot', ['stdio', 'url']],
  ['reference-server', ['stdio', 'url', 'from-snapshot']],
];

const COMMANDS = ['run', 'snapshot', 'baseline', 'lock', 'client', 'fleet'] as const;
type Command = (typeof COMMANDS)[number];
type OptionName = keyof typeof OPTIONS;

/** Options of the fleet command only, and of the client command only. */
const FLEET_ONLY: readonly OptionName[] = ['discover', 'audit', 'jobs', 'shard', 'fail-on-unavailable', 'lock-write'];
const CLIENT_ONLY: readonly OptionName[] = ['command', 'scenario', 'transport'];
/** What the client command reads: its client, the checks, the budget and the reports (no server target). */
const CLIENT_OPTIONS: readonly OptionName[] = [
  ...CLIENT_ONLY, 'checks', 'exclude-checks', 'list', 'reporter', 'output-dir', 'fail-on', 'fail-on-stale', 'baseline', 'color', 'timeout', 'max-duration',
  'junit-properties', 'sarif-artifact', 'verbose', 'quiet', 'config',
];

/**
 * The options each command takes: what its --help lists and what a "did you mean" picks from. Parsing accepts every
 * option everywhere, so that one given to the wrong command gets the error that says where it goes.
 */
export function commandOptions(command: Command): OptionName[] {
  const all = Object.keys(OPTIONS) as OptionName[];
  const without = (...lists: (readonly string[])[]) => all.filter((name) => !lists.some((list) => list.includes(name)));
  switch (command) {
    case 'fleet':
      return without(NOT_FOR_FLEET, CLIENT_ONLY, ['cwd', 'list-changed-args', 'snapshot-out', 'write', 'fail-on-stale']);
    case 'client':
      return all.filter((name) => CLIENT_OPTIONS.includes(name));
    case 'baseline':
    case 'lock':
      return without(FLEET_ONLY, CLIENT_ONLY);
    default:
      return without(FLEET_ONLY, CLIENT_ONLY, ['write']);
  }
}

/** The command a command line names first (as yargs reads it), else run. */
function commandOf(argv: readonly string[]): Command {
  const first = argv[0];
  return first !== undefined && (COMMANDS as readonly string[]).includes(first) ? (first as Command) : 'run';
}

const USAGE: Readonly<Record<Command, string>> = {
  run: '$0 [run] (--stdio "<command line>" | --url <http(s)://…>) [options]',
  snapshot: '$0 snapshot (--stdio "<command line>" | --url <http(s)://…>) [options] > tools.json',
  baseline: '$0 baseline --write <file> (--stdio "<command line>" | --url <http(s)://…>) [options]',
  lock: '$0 lock --write <file> (--stdio "<command line>" | --url <http(s)://…>) [options]',
  client: '$0 client --command "<client command line>" [options]',
  fleet: '$0 fleet [FILE…] [--discover [--audit]] [options]',
};

/** What parseArgs reads from the parsed command line. */
type ParsedArgs = { _: (string | number)[] } & { -readonly [K in keyof typeof OPTIONS]: OptionValue<(typeof OPTIONS)[K]> };
type OptionValue<S> = S extends { array: true } ? string[] | undefined
  : S extends { type: 'number' } ? (S extends { default: number } ? number : number | undefined)
  : S extends { type: 'boolean' } ? boolean
  : S extends { choices: readonly (infer C)[] } ? C
  : S extends { default: string } ? string
  : string | undefined;

/** Returns null when --help or --version was printed. */
export async function parseArgs(argv: string[], version: string, options: { quick?: boolean; terminal?: Terminal } = {}): Promise<CliOptions | null> {
  const layers = readConfigLayers(argv);
  const quick = options.quick === false ? undefined : quickParse(argv, layers);
  const args = quick ?? (await yargsParse(argv, version, layers));
  if (args === null) return null;
  return toCliOptions(args, options.terminal);
}

/**
 * The command line parsed by yargs-parser alone, with yargs' settings, when it is an ordinary one: no --help or
 * --version, no unknown option, no choice or conflict broken, at most a known command as positional. Anything else
 * (undefined) goes to yargs, which prints help, the version and usage errors. Loading yargs costs ~70 ms of start-up.
 */
export function quickParse(argv: readonly string[], layers: Layers = readConfigLayers(argv)): ParsedArgs | undefined {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version' || a.startsWith('--help=') || a.startsWith('--version='))) return undefined;
  // What yargs' .config() hands yargs-parser: a parser function per config option, and config objects (its types know neither).
  const config = { config: { config: layers.loadFile }, configObjects: layers.packageConfig ? [layers.packageConfig] : [] } as unknown as parser.Options;
  const parsed = parser.detailed([...argv], {
    string: optionNames((spec) => spec.type === 'string'),
    boolean: optionNames((spec) => spec.type === 'boolean'),
    number: optionNames((spec) => spec.type === 'number'),
    array: optionNames((spec) => spec.array === true),
    default: {
      ...Object.fromEntries(Object.entries(OPTIONS).flatMap(([name, spec]) => ('default' in spec ? [[name, spec.default]] : []))),
      ...(layers.defaultFile ? { config: layers.defaultFile } : {}),
    },
    ...config,
    configuration: { 'parse-positional-numbers': false, 'populate--': true },
  });
  if (parsed.error instanceof ConfigError) throw new UsageError(parsed.error.message);
  if (parsed.error) return undefined;
  const args = parsed.argv as Record<string, unknown> & { _: (string | number)[] };
  const known = new Set(Object.keys(OPTIONS).flatMap((name) => [name, camelCase(name)]));
  if (Object.keys(args).some((key) => key !== '_' && key !== '--' && !known.has(key))) return undefined;
  if (Array.isArray(args['--']) && args['--'].length > 0) return undefined;
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    if (spec.choices && args[name] !== undefined && !spec.choices.includes(args[name] as string)) return undefined;
  }
  for (const [name, others] of CONFLICTS) if (args[name] !== undefined && others.some((o) => args[o] !== undefined)) return undefined;
  const positional = args._.map(String);
  const files = positional[0] === 'fleet' ? positional.length - 1 : 0;
  if (positional.length - files > 1 || (positional.length === 1 && !(COMMANDS as readonly string[]).includes(positional[0]!))) return undefined;
  return args as unknown as ParsedArgs;
}

const OPTION_NAMES = Object.keys(OPTIONS);

/**
 * Options from a config file or package.json, layered as yargs does: the command line over the --config file (or
 * ./mcp-tools-conformance.config.json) over package.json's key over the defaults.
 */
type Layers = ConfigLayers & { loadFile: (path: string) => Record<string, unknown> };

function readConfigLayers(argv: readonly string[]): Layers {
  // A fleet's targets are its files' servers: a config's target does not apply to it.
  const omit = targetOnCommandLine(argv) || argv[0] === 'fleet' ? TARGET_OPTIONS : [];
  try {
    return { ...configLayers(process.cwd(), OPTION_NAMES, omit), loadFile: configFileLoader(OPTION_NAMES, omit) };
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

function optionNames(test: (spec: OptionSpec) => boolean): string[] {
  return (Object.entries(OPTIONS) as [string, OptionSpec][]).filter(([, spec]) => test(spec)).map(([name]) => name);
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** A command's help: its usage line and its epilog (its options are those commandOptions gives, see yargsParse). */
function ownHelp(command: Command) {
  return <Y extends { usage(text: string): Y; epilog(text: string): Y }>(y: Y): Y => y.usage(USAGE[command]).epilog(EPILOGS[command]);
}

/** The full yargs parse: help, version, and every usage error message. Null when help or the version was printed. */
async function yargsParse(argv: string[], version: string, layers: Layers): Promise<ParsedArgs | null> {
  const { default: yargs } = await import('yargs');
  const command = commandOf(argv);
  const own = commandOptions(command);
  let builder = yargs(argv)
    .scriptName('mcp-tools-conformance')
    .usage(USAGE[command])
    .command(['run', '$0'], 'audit an MCP server (the default command)')
    .command('snapshot', 'print the complete tool list (all pages, with the wire version) as JSON, for --from-snapshot', ownHelp('snapshot'))
    .command('baseline', 'with --write: audit the target and record its failures and warnings in the --baseline file', ownHelp('baseline'))
    .command('lock', "with --write: record a hash of each tool's definition in the --lock file", ownHelp('lock'))
    .command('client', 'audit an MCP client: run --command against a scripted 2026-07-28 server', ownHelp('client'))
    .command('fleet [files..]', 'audit every server of host config files (mcp.json, claude_desktop_config.json, .vscode/mcp.json): one report', ownHelp('fleet'));
  // Every option parses everywhere (one given to the wrong command gets the error saying where it goes); --help lists the command's own.
  for (const [name, spec] of Object.entries(OPTIONS)) builder = builder.option(name, { ...(spec as OptionSpec), hidden: !own.includes(name as OptionName) });
  if (layers.defaultFile) builder = builder.default('config', layers.defaultFile);
  builder = builder.config('config', OPTIONS.config.describe, layers.loadFile);
  if (layers.packageConfig) builder = builder.config(layers.packageConfig);
  for (const [name, others] of CONFLICTS) builder = builder.conflicts(name, others as string[]);
  const args = await builder
    .strict()
    .version(version)
    .alias('h', 'help')
    .epilog(EPILOGS[command])
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      throw new UsageError(withSuggestions(withRenames(oneLine(error?.message ?? message)), command, argv));
    })
    .parseAsync();
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return null;
  return args as unknown as ParsedArgs;
}

/** Options that were renamed: a command line that still uses the old name is told the new one. */
const RENAMED: Readonly<Record<string, string>> = { spec: 'protocol-version' };

/** "Unknown argument: spec" names the option that took its place. */
export function withRenames(message: string): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (!unknown) return message;
  const renamed = unknown[1]!.split(', ').filter((name) => Object.hasOwn(RENAMED, name));
  return renamed.length === 0 ? message : `${message} (${renamed.map((name) => `--${name} is now --${RENAMED[name]!}`).join('; ')})`;
}

/**
 * "Unknown argument: stdoi" says what was meant when an option of the command (or a command, for a word) is close:
 * `(did you mean --stdio?)`. The camel-case twin yargs lists beside a dashed name (`std-oi, stdOi`) is left out.
 */
export function withSuggestions(message: string, command: Command = 'run', argv: readonly string[] = []): string {
  const unknown = /^Unknown arguments?: (.+?)( \(--.*\))?$/.exec(message);
  if (!unknown) return message;
  const given = unknown[1]!.split(', ');
  const names = given.filter((name) => !(/[A-Z]/.test(name) && given.includes(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))));
  // yargs names an option without its dashes: one given as a flag is shown as one.
  const flag = (name: string) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `-${name}`);
  const shownName = (name: string) => (flag(name) || argv.length === 0 ? `--${name}` : name);
  const hints = names.flatMap((name) => {
    const suggestion = suggest(name, command, flag(name) || argv.length === 0);
    return suggestion === undefined ? [] : [{ name, suggestion }];
  });
  const shown = `Unknown argument${names.length === 1 ? '' : 's'}: ${names.join(', ')}${unknown[2] ?? ''}`;
  if (hints.length === 0) return shown;
  if (names.length === 1) return `${shown} (did you mean ${hints[0]!.suggestion}?)`;
  return `${shown} (did you mean ${hints.map((h) => `${h.suggestion} for ${shownName(h.name)}`).join('; ')}?)`;
}

/** An option of the command near the name; else one of another command, saying whose; else, for a word, a command. */
function suggest(name: string, command: Command, asFlag: boolean): string | undefined {
  const own = closest(name, commandOptions(command));
  if (own !== undefined) return `--${own}`;
  const other = closest(name, Object.keys(OPTIONS));
  if (other !== undefined) {
    const owners = COMMANDS.filter((c) => commandOptions(c).includes(other as OptionName));
    return `--${other}, an option of ${owners.length > 1 ? `the ${owners.slice(0, -1).join(', ')} and ${owners.at(-1)} commands` : `the ${owners[0]} command`}`;
  }
  if (asFlag || command !== 'run') return undefined;
  const word = closest(name, COMMANDS.filter((c) => c !== 'run'));
  return word === undefined ? undefined : `the ${word} command`;
}

/** Where a usage error of this command line points for help: the command's own --help. */
export function helpPointer(argv: readonly string[]): string {
  const command = commandOf(argv);
  return command === 'run' ? '--help' : `${command} --help`;
}

/** The candidate nearest to `name` when it is near enough to be a slip: a typo or two, a swap, or a cut-off prefix. */
function closest(name: string, candidates: readonly string[]): string | undefined {
  const word = name.replace(/^-+/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).toLowerCase();
  if (word.length < 2) return undefined;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = candidate.startsWith(word) && word.length >= 4 ? 1 : editDistance(word, candidate);
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  const allowed = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  return best !== undefined && best.distance > 0 && best.distance <= allowed ? best.candidate : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours each cost 1. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** yargs words some errors over several lines ("Invalid values:\n  Argument: …"): a usage error is one line. */
export function oneLine(message: string): string {
  return message.replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ').trim();
}

/** Whether a person is at a terminal: without one (a CI job) an audit must name its target. */
export interface Terminal {
  interactive: boolean;
}

const PROCESS_TERMINAL: Terminal = {
  get interactive() {
    return process.stdin.isTTY === true && process.stdout.isTTY === true;
  },
};

function toCliOptions(args: ParsedArgs, terminal: Terminal = PROCESS_TERMINAL): CliOptions {
  const [first, ...others] = args._.map(String);
  const command = first === 'snapshot' || first === 'baseline' || first === 'lock' || first === 'client' || first === 'fleet' ? first : 'run';
  const fleetFiles = command === 'fleet' ? [...others, ...((args as { files?: unknown }).files as string[] | undefined ?? []).map(String)] : [];
  const positional = command === 'fleet' ? [] : first === command || first === 'run' ? others : args._.map(String);
  if ((command === 'baseline' || command === 'lock') && args.write === undefined) {
    throw new UsageError(`${command} needs --write <file> (to compare a run with a ${command} file, use --${command} <file> on a normal run)`);
  }
  if (args.write !== undefined && command === 'run') throw new UsageError('--write goes with the baseline or lock command');
  const written = args.write === undefined || args.write === '' ? undefined : String(args.write);
  if (args.quiet && args.verbose) throw new UsageError('--quiet and --verbose contradict each other: choose one');
  const failOn = String(args['fail-on']).toLowerCase();
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`--fail-on must be must or should, got ${JSON.stringify(args['fail-on'])}`);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}`);
  if (command === 'snapshot' && args['from-snapshot'] !== undefined) throw new UsageError('snapshot takes a live target (--stdio or --url), not --from-snapshot');
  const reporters = String(args.reporter).split(',').map((r) => r.trim()).filter(Boolean);
  // No reporter would run the audit and say nothing, write nothing: never what was meant.
  if (reporters.length === 0) throw new UsageError(`--reporter needs at least one of ${REPORTER_NAMES.join(', ')}, got ${JSON.stringify(String(args.reporter))}`);
  for (const r of reporters) if (!isReporterName(r)) throw new UsageError(`unknown reporter "${r}" (choose from ${REPORTER_NAMES.join(', ')})`);
  for (const [flag, value] of [['--timeout', args.timeout], ['--max-duration', args['max-duration']], ['--concurrency', args.concurrency], ['--max-rps', args['max-rps']], ['--max-message-bytes', args['max-message-bytes']]] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value <= 0)) throw new UsageError(`${flag} must be a positive number`);
  }
  for (const [flag, value] of [['--timeout', args.timeout], ['--max-duration', args['max-duration']]] as const) {
    if (value > MAX_TIMER_MS) throw new UsageError(`${flag} must be at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest a timer can wait`);
  }
  if (!Number.isInteger(args.seed) || args.seed < 0 || args.seed > MAX_SEED) throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED}`);
  if (!Number.isInteger(args.runs) || args.runs < 1 || args.runs > MAX_RUNS) throw new UsageError(`--runs must be an integer from 1 to ${MAX_RUNS}`);
  const httpConnectionsGiven = args['http-connections'];
  if (httpConnectionsGiven !== undefined && (!Number.isInteger(httpConnectionsGiven) || httpConnectionsGiven < 1 || httpConnectionsGiven > MAX_HTTP_CONNECTIONS)) {
    throw new UsageError(`--http-connections must be an integer from 1 to ${MAX_HTTP_CONNECTIONS}`);
  }
  if (httpConnectionsGiven !== undefined && httpConnectionsGiven > 1 && args.url === undefined && command !== 'fleet') throw new UsageError('--http-connections applies to a --url target only');
  // A pool of --concurrency connections, as any HTTP client would use: the checks that run at once do not queue on one.
  const httpConnections = args.url === undefined ? 1 : (httpConnectionsGiven ?? Math.min(Math.max(1, Math.floor(args.concurrency)), MAX_HTTP_CONNECTIONS));
  const replay = args.replay === undefined ? undefined : parseReplayToken(String(args.replay));
  if (args.replay !== undefined && replay === undefined) throw new UsageError('--replay must look like <tool>@<path>, e.g. get_weather@12:0:1, as printed in a replay line');
  if (args.stdio !== undefined && args.stdio.trim() === '') throw new UsageError('--stdio needs a command line');
  if (args.url !== undefined && !/^https?:\/\//i.test(args.url)) throw new UsageError('--url must start with http:// or https://');
  const env: Record<string, string> = {};
  for (const raw of args.env ?? []) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(String(raw));
    if (!match) throw new UsageError(`--env must look like NAME=value, got ${JSON.stringify(String(raw).split('=')[0])}=…`);
    env[match[1]!] = match[2]!;
  }
  if (Object.keys(env).length > 0 && args.url !== undefined) throw new UsageError('--env applies to a --stdio target only');
  const headers: Record<string, string> = {};
  for (const raw of args.header ?? []) {
    const [name, value] = parseHeader(String(raw));
    headers[name] = value;
  }
  const listChangedTrigger = parseTrigger(args['list-changed-trigger'], args['list-changed-args']);
  const revisions = parseRevisions(command, args);
  const client = clientOptions(command, args);
  const named = args.stdio !== undefined || args.url !== undefined || args['from-snapshot'] !== undefined || Boolean(args['reference-server']);
  const fleet = fleetOptions(command, args, fleetFiles, reporters);
  const snapshotOut = args['snapshot-out'];
  if (snapshotOut !== undefined) {
    if (command !== 'run' || args['from-snapshot'] !== undefined || args.revisions !== undefined) throw new UsageError('--snapshot-out goes with an audit of one live target (run, without --from-snapshot or --revisions)');
    if (snapshotOut.trim() === '') throw new UsageError('--snapshot-out needs a file');
  }
  const sandbox = sandboxOptions(command, args);
  if (args.cwd !== undefined && (args.stdio === undefined || command === 'fleet')) throw new UsageError('--cwd applies to a --stdio target only (a fleet takes each server\'s cwd from its file)');
  if (!named && !args.list && !terminal.interactive && !client && !fleet) {
    throw new UsageError('name a target: --stdio, --url or --from-snapshot (or --reference-server)');
  }
  return {
    command,
    ...(client ? { client } : {}),
    ...(fleet ? { fleet } : {}),
    ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
    ...(snapshotOut !== undefined ? { snapshotOut } : {}),
    fromSnapshot: args['from-snapshot'],
    stdio: args.stdio,
    url: args.url,
    headers,
    env,
    protocolVersion: args['protocol-version'] as SpecChoice,
    ...(revisions ? { revisions } : {}),
    checks: parsePatterns(args.checks?.map(String)),
    excludeChecks: parsePatterns(args['exclude-checks']?.map(String)),
    list: Boolean(args.list),
    reporters: reporters as ReporterName[],
    outputDir: String(args['output-dir']),
    failOn,
    failOnStale: Boolean(args['fail-on-stale']),
    referenceServer: Boolean(args['reference-server']),
    ...(args.color !== undefined ? { color: Boolean(args.color) } : {}),
    timeoutMs: args.timeout,
    maxDurationMs: args['max-duration'],
    maxMessageBytes: Math.floor(args['max-message-bytes']),
    ...(args['max-rps'] !== undefined ? { maxRps: args['max-rps'] } : {}),
    concurrency: Math.floor(args.concurrency),
    httpConnections,
    ...(httpConnectionsGiven !== undefined ? { httpConnectionsGiven } : {}),
    verbose: Boolean(args.verbose),
    quiet: Boolean(args.quiet),
    junitProperties: Boolean(args['junit-properties']),
    allowTools: args['allow-all-tools'] ? 'all' : fleet ? [] : parsePatterns(args['allow-tools']?.map(String)),
    skipTools: parsePatterns(args['skip-tools']?.map(String)),
    ...(sandbox ? { sandbox } : {}),
    ...(listChangedTrigger ? { listChangedTrigger } : {}),
    ...(args['sarif-artifact'] !== undefined ? { sarifArtifact: args['sarif-artifact'] } : {}),
    ...(command === 'baseline' && written ? { baseline: written } : args.baseline !== undefined ? { baseline: args.baseline } : {}),
    ...(command === 'lock' && written ? { lock: written } : args.lock !== undefined ? { lock: args.lock } : {}),
    seed: args.seed,
    runs: args.runs,
    ...(replay ? { replay } : {}),
  };
}

/** What a fleet report is written as (github's annotations are a single audit's). */
export const FLEET_REPORTERS: readonly ReporterName[] = ['console', 'json', 'junit', 'sarif', 'markdown', 'html'];

/** Options that name one target or belong to one server's audit: a fleet takes them from its files, per server. */
const NOT_FOR_FLEET = ['stdio', 'url', 'from-snapshot', 'reference-server', 'header', 'env', 'baseline', 'revisions', 'list-changed-trigger', 'replay', 'list'] as const;

/** The fleet command's options, and the usage errors of options that do not go with it. */
function fleetOptions(command: CliOptions['command'], args: ParsedArgs, files: string[], reporters: string[]): FleetOptions | undefined {
  if (command !== 'fleet') {
    const given = (['discover', 'audit', 'fail-on-unavailable'] as const).find((name) => args[name]) ?? (['jobs', 'shard', 'lock-write'] as const).find((name) => args[name] !== undefined);
    if (given) throw new UsageError(`--${given} goes with the fleet command (mcp-tools-conformance fleet <mcp.json>…)`);
    return undefined;
  }
  const misplaced = NOT_FOR_FLEET.find((name) => args[name] !== undefined && args[name] !== false);
  if (misplaced) throw new UsageError(`--${misplaced} does not go with fleet: each server's target, env and headers come from its host file`);
  const unsupported = reporters.filter((r) => !(FLEET_REPORTERS as readonly string[]).includes(r));
  if (unsupported.length > 0) throw new UsageError(`fleet writes the ${FLEET_REPORTERS.join(', ')} reports, not ${unsupported.join(', ')}`);
  if (args.audit && !args.discover) throw new UsageError('--audit goes with --discover (named files are always audited)');
  if (files.length === 0 && !args.discover) throw new UsageError('fleet needs host config files (mcp.json, claude_desktop_config.json, …) or --discover');
  const jobs = args.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs must be a whole number of at least 1');
  const shard = args.shard === undefined ? undefined : parseShard(String(args.shard));
  const lockWrite = args['lock-write'];
  if (lockWrite !== undefined) {
    if (lockWrite.trim() === '') throw new UsageError('--lock-write needs a file');
    if (args.lock !== undefined) throw new UsageError('--lock compares with a fleet lock and --lock-write writes one: choose one');
    if (shard) throw new UsageError('--lock-write needs every server of the fleet: a shard would write a lock of some of them only');
  }
  if (args.lock !== undefined && String(args.lock).trim() === '') throw new UsageError('--lock needs a file');
  const allowTools: Record<string, string[]> = {};
  for (const item of parsePatterns(args['allow-tools']?.map(String))) {
    const colon = item.lastIndexOf(':');
    if (colon <= 0 || colon === item.length - 1) throw new UsageError(`--allow-tools in a fleet names the server of each tool: server:tool, got ${JSON.stringify(item)}`);
    (allowTools[item.slice(0, colon)] ??= []).push(item.slice(colon + 1));
  }
  return {
    files,
    discover: Boolean(args.discover),
    audit: Boolean(args.audit),
    jobs,
    ...(shard ? { shard } : {}),
    failOnUnavailable: Boolean(args['fail-on-unavailable']),
    allowTools,
    ...(lockWrite !== undefined ? { lockWrite } : {}),
  };
}

/** --sandbox [--sandbox-network]: an audit of a server we start (stdio, or every stdio server of a fleet). */
function sandboxOptions(command: CliOptions['command'], args: ParsedArgs): CliOptions['sandbox'] {
  if (!args.sandbox) {
    if (args['sandbox-network']) throw new UsageError('--sandbox-network goes with --sandbox');
    return undefined;
  }
  if (command !== 'run' && command !== 'baseline' && command !== 'fleet') throw new UsageError(`--sandbox goes with an audit (run, baseline or fleet), not ${command}`);
  if (args.url !== undefined) {
    throw new UsageError('--sandbox runs a server that the audit starts (--stdio); a --url server runs elsewhere and cannot be sandboxed from here');
  }
  if (args['from-snapshot'] !== undefined) throw new UsageError('--sandbox needs a live --stdio target: a snapshot calls no tool');
  return { network: Boolean(args['sandbox-network']) };
}

/** --shard i/n: 1 ≤ i ≤ n. */
export function parseShard(raw: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(index >= 1 && count >= 1 && index <= count)) throw new UsageError(`--shard must look like i/n with 1 ≤ i ≤ n (e.g. 2/4), got ${JSON.stringify(raw)}`);
  return { index, count };
}

/** The client command's options; they go with it only, and it takes no server target. */
function clientOptions(command: CliOptions['command'], args: ParsedArgs): CliOptions['client'] {
  if (command !== 'client') {
    const given = (['command', 'scenario', 'transport'] as const).find((name) => args[name] !== undefined);
    if (given) throw new UsageError(`--${given} goes with the client command (mcp-tools-conformance client --command "<client>")`);
    return undefined;
  }
  const target = (['stdio', 'url', 'from-snapshot', 'reference-server', 'lock'] as const).find((name) => args[name] !== undefined && args[name] !== false);
  if (target) throw new UsageError(`--${target} names a server to audit; the client command audits the --command client against its own scripted server`);
  const ofServer = (['env', 'header', 'allow-tools', 'allow-all-tools', 'skip-tools', 'sandbox', 'revisions', 'snapshot-out', 'list-changed-trigger'] as const).find(
    (name) => args[name] !== undefined && args[name] !== false,
  );
  if (ofServer) throw new UsageError(`--${ofServer} goes with a server audit (--stdio or --url), not the client command: the client runs with the environment it is started in`);
  if (args.list) return { command: '', transport: 'http', scenarios: [...SCENARIOS] };
  if (args.command === undefined || args.command.trim() === '') throw new UsageError('client needs --command "<client command line>"');
  const patterns = parsePatterns(args.scenario?.map(String));
  const scenarios = patterns.length === 0 ? [...SCENARIOS] : SCENARIOS.filter((s) => patterns.some((p) => globToRegExp(p).test(s)));
  const unmatched = patterns.filter((p) => !SCENARIOS.some((s) => globToRegExp(p).test(s)));
  if (unmatched.length > 0) throw new UsageError(`no scenario matches ${unmatched.map((u) => JSON.stringify(u)).join(', ')} (scenarios: ${SCENARIOS.join(', ')})`);
  return { command: args.command, transport: args.transport ?? 'http', scenarios };
}

/** --revisions all|<rev,…>: the revisions in WIRES order (newest first), each once; only for an audit of a live server. */
function parseRevisions(command: CliOptions['command'], args: ParsedArgs): Wire[] | undefined {
  if (args.revisions === undefined) return undefined;
  const given = parsePatterns(args.revisions.map(String));
  if (given.length === 0) throw new UsageError(`--revisions needs all or a list of revisions (${WIRES.join(', ')})`);
  const unknown = given.filter((r) => r !== 'all' && !isWire(r));
  if (unknown.length > 0) throw new UsageError(`--revisions: unknown revision ${unknown.map((u) => JSON.stringify(u)).join(', ')} (choose all, or from ${WIRES.join(', ')})`);
  if (command !== 'run' && command !== 'baseline') throw new UsageError(`--revisions goes with an audit (run or baseline), not ${command}`);
  if (args['from-snapshot'] !== undefined) throw new UsageError('--revisions needs a live target: a snapshot holds one negotiation');
  if (args['protocol-version'] !== 'auto') throw new UsageError('--revisions offers each revision itself: leave out --protocol-version');
  return given.includes('all') ? [...WIRES] : WIRES.filter((wire) => given.includes(wire));
}

function parseTrigger(name: string | undefined, rawArgs: string | undefined): CliOptions['listChangedTrigger'] {
  if (name === undefined) {
    if (rawArgs !== undefined) throw new UsageError('--list-changed-args needs --list-changed-trigger');
    return undefined;
  }
  if (name.trim() === '') throw new UsageError('--list-changed-trigger needs a tool name');
  let parsed: unknown = {};
  if (rawArgs !== undefined) {
    try {
      parsed = JSON.parse(rawArgs);
    } catch {
      throw new UsageError('--list-changed-args must be a JSON object');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--list-changed-args must be a JSON object');
  return { name, arguments: parsed as Record<string, unknown> };
}
