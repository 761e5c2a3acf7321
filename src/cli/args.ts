import parser from 'yargs-parser';
import { REPORTER_NAMES, isReporterName, type ReporterName } from '../report/names.js';
import type { SpecChoice } from '../protocol/negotiate.js';
import type { Revision } from '../core/revision.js';
import { parsePatterns } from '../runner/registry.js';
import { parseReplayToken, type ReplayTarget } from '../property/replay.js';
import {
  ConfigError,
  configFileLoader,
  configLayers,
  TARGET_OPTIONS,
  targetOnCommandLine,
  type ConfigLayers,
} from './config-file.js';
import { UsageError } from './usage-error.js';
import { clientOptions, type ClientOptions } from './options/client.js';
import { COMMANDS, commandOf, commandOptions, EPILOGS, USAGE, type Command } from './options/commands.js';
import { fleetOptions, type FleetOptions } from './options/fleet.js';
import { hostOptions, type HostOptions } from './options/hosts.js';
import {
  CONFLICTS,
  MAX_HTTP_CONNECTIONS,
  MAX_RUNS,
  MAX_SEED,
  MAX_TIMER_MS,
  OPTIONS,
  type OptionName,
  type OptionSpec,
  type ParsedArgs,
} from './options/table.js';
import {
  checkTargetFlags,
  parseRevisions,
  parseTrigger,
  sandboxOptions,
  targetEnv,
  targetHeaders,
  type ListChangedTrigger,
  type SandboxOptions,
} from './options/target.js';

export interface CliOptions {
  command: 'run' | 'snapshot' | 'baseline' | 'lock' | 'client' | 'fleet';
  /** The fleet command: the host files, where to look for more, how many audits at once and which slice. */
  fleet?: FleetOptions;
  /** --cwd: the working directory of a --stdio target (default: ours). */
  cwd?: string;
  /** --snapshot-out: also save the audit's own tool listing as a snapshot there (what --from-snapshot reads). */
  snapshotOut?: string;
  client?: ClientOptions;
  stdio?: string;
  fromSnapshot?: string;
  url?: string;
  headers: Record<string, string>;
  /** --env NAME=value: added to the stdio target's environment; values never reach a report. */
  env: Record<string, string>;
  protocolVersion: SpecChoice;
  /** --revisions: one audit per revision, newest first, in one report with the matrix of checks by revision. */
  revisions?: Revision[];
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
  sandbox?: SandboxOptions;
  listChangedTrigger?: ListChangedTrigger;
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
  /**
   * --hosts / --fail-on-host / --server-name: host compatibility of the listed tools, a separate axis from the checks.
   */
  hosts?: HostOptions;
}

/** Returns null when --help or --version was printed. */
export async function parseArgs(
  argv: string[],
  version: string,
  options: { quick?: boolean; terminal?: Terminal } = {},
): Promise<CliOptions | null> {
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
  if (
    argv.some(
      (a) => a === '--help' || a === '-h' || a === '--version' || a.startsWith('--help=') || a.startsWith('--version='),
    )
  )
    return undefined;
  // What yargs' .config() hands yargs-parser: a parser function per config option, and config objects (its types know
  // neither).
  const config = {
    config: { config: layers.loadFile },
    configObjects: layers.packageConfig ? [layers.packageConfig] : [],
  } as unknown as parser.Options;
  const parsed = parser.detailed([...argv], {
    string: optionNames((spec) => spec.type === 'string'),
    boolean: optionNames((spec) => spec.type === 'boolean'),
    number: optionNames((spec) => spec.type === 'number'),
    array: optionNames((spec) => spec.array === true),
    default: {
      ...Object.fromEntries(
        Object.entries(OPTIONS).flatMap(([name, spec]) => ('default' in spec ? [[name, spec.default]] : [])),
      ),
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
  for (const [name, others] of CONFLICTS)
    if (args[name] !== undefined && others.some((o) => args[o] !== undefined)) return undefined;
  const positional = args._.map(String);
  const files = positional[0] === 'fleet' ? positional.length - 1 : 0;
  if (
    positional.length - files > 1 ||
    (positional.length === 1 && !(COMMANDS as readonly string[]).includes(positional[0]!))
  )
    return undefined;
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
  return <Y extends { usage(text: string): Y; epilog(text: string): Y }>(y: Y): Y =>
    y.usage(USAGE[command]).epilog(EPILOGS[command]);
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
    .command(
      'snapshot',
      'print the complete tool list (all pages, with the wire version) as JSON, for --from-snapshot',
      ownHelp('snapshot'),
    )
    .command(
      'baseline',
      'with --write: audit the target and record its failures and warnings in the --baseline file',
      ownHelp('baseline'),
    )
    .command('lock', "with --write: record a hash of each tool's definition in the --lock file", ownHelp('lock'))
    .command('client', 'audit an MCP client: run --command against a scripted 2026-07-28 server', ownHelp('client'))
    .command(
      'fleet [files..]',
      'audit every server of host config files (mcp.json, claude_desktop_config.json, .vscode/mcp.json): one report',
      ownHelp('fleet'),
    );
  // Every option parses everywhere (one given to the wrong command gets the error saying where it goes); --help lists
  // the command's own.
  for (const [name, spec] of Object.entries(OPTIONS))
    builder = builder.option(name, { ...(spec as OptionSpec), hidden: !own.includes(name as OptionName) });
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
  return renamed.length === 0
    ? message
    : `${message} (${renamed.map((name) => `--${name} is now --${RENAMED[name]!}`).join('; ')})`;
}

/**
 * "Unknown argument: stdoi" says what was meant when an option of the command (or a command, for a word) is close:
 * `(did you mean --stdio?)`. The camel-case twin yargs lists beside a dashed name (`std-oi, stdOi`) is left out.
 */
export function withSuggestions(message: string, command: Command = 'run', argv: readonly string[] = []): string {
  const unknown = /^Unknown arguments?: (.+?)( \(--.*\))?$/.exec(message);
  if (!unknown) return message;
  const given = unknown[1]!.split(', ');
  const names = given.filter(
    (name) => !(/[A-Z]/.test(name) && given.includes(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))),
  );
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
    return (
      `--${other}, an option of ` +
      String(
        owners.length > 1
          ? `the ${owners.slice(0, -1).join(', ')} and ${owners.at(-1)} commands`
          : `the ${owners[0]} command`,
      )
    );
  }
  if (asFlag || command !== 'run') return undefined;
  const word = closest(
    name,
    COMMANDS.filter((c) => c !== 'run'),
  );
  return word === undefined ? undefined : `the ${word} command`;
}

/** Where a usage error of this command line points for help: the command's own --help. */
export function helpPointer(argv: readonly string[]): string {
  const command = commandOf(argv);
  return command === 'run' ? '--help' : `${command} --help`;
}

/** The candidate nearest to `name` when it is near enough to be a slip: a typo or two, a swap, or a cut-off prefix. */
function closest(name: string, candidates: readonly string[]): string | undefined {
  const word = name
    .replace(/^-+/, '')
    .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    .toLowerCase();
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
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** yargs words some errors over several lines ("Invalid values:\n  Argument: …"): a usage error is one line. */
export function oneLine(message: string): string {
  return message
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ')
    .trim();
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
  const { command, positional, fleetFiles } = commandLine(args);
  const written = writtenFile(command, args);
  if (args.quiet && args.verbose) throw new UsageError('--quiet and --verbose contradict each other: choose one');
  const failOn = String(args['fail-on']).toLowerCase();
  if (failOn !== 'must' && failOn !== 'should')
    throw new UsageError(`--fail-on must be must or should, got ${JSON.stringify(args['fail-on'])}`);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}`);
  if (command === 'snapshot' && args['from-snapshot'] !== undefined)
    throw new UsageError('snapshot takes a live target (--stdio or --url), not --from-snapshot');
  const reporters = reporterNames(args);
  checkLimits(args);
  const { httpConnections, httpConnectionsGiven } = httpConnectionsOf(command, args);
  const replay = replayOf(args);
  checkTargetFlags(args);
  const env = targetEnv(args);
  const headers = targetHeaders(args);
  const listChangedTrigger = parseTrigger(args['list-changed-trigger'], args['list-changed-args']);
  const revisions = parseRevisions(command, args);
  const client = clientOptions(command, args);
  const fleet = fleetOptions(command, args, fleetFiles, reporters);
  const snapshotOut = snapshotOutOf(command, args);
  const sandbox = sandboxOptions(command, args);
  const hosts = hostOptions(command, args);
  if (args.cwd !== undefined && (args.stdio === undefined || command === 'fleet'))
    throw new UsageError("--cwd applies to a --stdio target only (a fleet takes each server's cwd from its file)");
  const named =
    args.stdio !== undefined ||
    args.url !== undefined ||
    args['from-snapshot'] !== undefined ||
    Boolean(args['reference-server']);
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
    ...(command === 'baseline' && written
      ? { baseline: written }
      : args.baseline !== undefined
        ? { baseline: args.baseline }
        : {}),
    ...(command === 'lock' && written ? { lock: written } : args.lock !== undefined ? { lock: args.lock } : {}),
    seed: args.seed,
    runs: args.runs,
    ...(replay ? { replay } : {}),
    ...(hosts ? { hosts } : {}),
  };
}

/** The command, the positional arguments left over (an error if any), and a fleet's host files. */
function commandLine(args: ParsedArgs): { command: Command; positional: string[]; fleetFiles: string[] } {
  const words = args._.map(String);
  const command = commandOf(words);
  const [first, ...others] = words;
  const fleetFiles =
    command === 'fleet'
      ? [...others, ...(((args as { files?: unknown }).files as string[] | undefined) ?? []).map(String)]
      : [];
  const positional = command === 'fleet' ? [] : first === command || first === 'run' ? others : words;
  return { command, positional, fleetFiles };
}

/** baseline and lock: the file --write names, which they need; no other command takes it. */
function writtenFile(command: Command, args: ParsedArgs): string | undefined {
  if ((command === 'baseline' || command === 'lock') && args.write === undefined) {
    throw new UsageError(
      `${command} needs --write <file> (to compare a run with a ${command} file, use --${command} <file> on a ` +
        `normal run)`,
    );
  }
  if (args.write !== undefined && command === 'run')
    throw new UsageError('--write goes with the baseline or lock command');
  return args.write === undefined || args.write === '' ? undefined : String(args.write);
}

function reporterNames(args: ParsedArgs): ReporterName[] {
  const reporters = String(args.reporter)
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  // No reporter would run the audit and say nothing, write nothing: never what was meant.
  if (reporters.length === 0)
    throw new UsageError(
      `--reporter needs at least one of ${REPORTER_NAMES.join(', ')}, got ${JSON.stringify(String(args.reporter))}`,
    );
  for (const r of reporters)
    if (!isReporterName(r)) throw new UsageError(`unknown reporter "${r}" (choose from ${REPORTER_NAMES.join(', ')})`);
  return reporters as ReporterName[];
}

/** The numbers' bounds: positive durations and rates a timer can wait, a seed and a run count in range. */
function checkLimits(args: ParsedArgs): void {
  for (const [flag, value] of [
    ['--timeout', args.timeout],
    ['--max-duration', args['max-duration']],
    ['--concurrency', args.concurrency],
    ['--max-rps', args['max-rps']],
    ['--max-message-bytes', args['max-message-bytes']],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value <= 0))
      throw new UsageError(`${flag} must be a positive number`);
  }
  for (const [flag, value] of [
    ['--timeout', args.timeout],
    ['--max-duration', args['max-duration']],
  ] as const) {
    if (value > MAX_TIMER_MS)
      throw new UsageError(
        `${flag} must be at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest a timer can wait`,
      );
  }
  if (!Number.isInteger(args.seed) || args.seed < 0 || args.seed > MAX_SEED)
    throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED}`);
  if (!Number.isInteger(args.runs) || args.runs < 1 || args.runs > MAX_RUNS)
    throw new UsageError(`--runs must be an integer from 1 to ${MAX_RUNS}`);
}

function httpConnectionsOf(
  command: Command,
  args: ParsedArgs,
): { httpConnections: number; httpConnectionsGiven: number | undefined } {
  const httpConnectionsGiven = args['http-connections'];
  if (
    httpConnectionsGiven !== undefined &&
    (!Number.isInteger(httpConnectionsGiven) || httpConnectionsGiven < 1 || httpConnectionsGiven > MAX_HTTP_CONNECTIONS)
  ) {
    throw new UsageError(`--http-connections must be an integer from 1 to ${MAX_HTTP_CONNECTIONS}`);
  }
  if (httpConnectionsGiven !== undefined && httpConnectionsGiven > 1 && args.url === undefined && command !== 'fleet')
    throw new UsageError('--http-connections applies to a --url target only');
  // A pool of --concurrency connections, as any HTTP client would use: the checks that run at once do not queue on one.
  const httpConnections =
    args.url === undefined
      ? 1
      : (httpConnectionsGiven ?? Math.min(Math.max(1, Math.floor(args.concurrency)), MAX_HTTP_CONNECTIONS));
  return { httpConnections, httpConnectionsGiven };
}

function replayOf(args: ParsedArgs): ReplayTarget | undefined {
  const replay = args.replay === undefined ? undefined : parseReplayToken(String(args.replay));
  if (args.replay !== undefined && replay === undefined)
    throw new UsageError('--replay must look like <tool>@<path>, e.g. get_weather@12:0:1, as printed in a replay line');
  return replay;
}

function snapshotOutOf(command: Command, args: ParsedArgs): string | undefined {
  const snapshotOut = args['snapshot-out'];
  if (snapshotOut !== undefined) {
    if (command !== 'run' || args['from-snapshot'] !== undefined || args.revisions !== undefined)
      throw new UsageError(
        '--snapshot-out goes with an audit of one live target (run, without --from-snapshot or --revisions)',
      );
    if (snapshotOut.trim() === '') throw new UsageError('--snapshot-out needs a file');
  }
  return snapshotOut;
}
