import { OPTIONS, type OptionName } from './table.js';

export const COMMANDS = ['run', 'snapshot', 'baseline', 'lock', 'client', 'fleet'] as const;
export type Command = (typeof COMMANDS)[number];

/** What every command reports with: which checks, the report files, when to fail, the console. */
const REPORTING: readonly OptionName[] = [
  'checks',
  'exclude-checks',
  'reporter',
  'output-dir',
  'fail-on',
  'color',
  'junit-properties',
  'sarif-artifact',
  'verbose',
  'quiet',
  'config',
  'timeout',
  'max-duration',
];
/**
 * What an audit of servers sets: the revision offered, limits, which tools are called and how, the property searches,
 * the hosts.
 */
const SERVER_AUDIT: readonly OptionName[] = [
  'protocol-version',
  'max-message-bytes',
  'max-rps',
  'concurrency',
  'http-connections',
  'allow-tools',
  'allow-all-tools',
  'sandbox',
  'sandbox-network',
  'skip-tools',
  'lock',
  'seed',
  'runs',
  'hosts',
  'fail-on-host',
];
/** The target of one audit and what belongs to that one server (a fleet takes them from its files). */
const ONE_TARGET: readonly OptionName[] = [
  'stdio',
  'url',
  'from-snapshot',
  'header',
  'env',
  'cwd',
  'revisions',
  'reference-server',
  'snapshot-out',
  'list-changed-trigger',
  'list-changed-args',
  'replay',
  'server-name',
  'baseline',
  'fail-on-stale',
  'list',
];

const RUN: readonly OptionName[] = [...ONE_TARGET, ...SERVER_AUDIT, ...REPORTING];

/**
 * The options each command takes: what its --help lists, in the table's order, and what a "did you mean" picks from.
 * Parsing accepts every option everywhere, so that one given to the wrong command gets the error that says where it
 * goes.
 */
const OWN_OPTIONS: Readonly<Record<Command, readonly OptionName[]>> = {
  run: RUN,
  snapshot: RUN,
  baseline: [...RUN, 'write'],
  lock: [...RUN, 'write'],
  client: ['command', 'scenario', 'transport', 'baseline', 'fail-on-stale', 'list', ...REPORTING],
  fleet: ['discover', 'audit', 'jobs', 'shard', 'fail-on-unavailable', 'lock-write', ...SERVER_AUDIT, ...REPORTING],
};

export function commandOptions(command: Command): OptionName[] {
  return (Object.keys(OPTIONS) as OptionName[]).filter((name) => OWN_OPTIONS[command].includes(name));
}

/** The command a command line names first (as yargs reads it), else run. */
export function commandOf(argv: readonly string[]): Command {
  const first = argv[0];
  return first !== undefined && (COMMANDS as readonly string[]).includes(first) ? (first as Command) : 'run';
}

export const USAGE: Readonly<Record<Command, string>> = {
  run: '$0 [run] (--stdio "<command line>" | --url <http(s)://…>) [options]',
  snapshot: '$0 snapshot (--stdio "<command line>" | --url <http(s)://…>) [options] > tools.json',
  baseline: '$0 baseline --write <file> (--stdio "<command line>" | --url <http(s)://…>) [options]',
  lock: '$0 lock --write <file> (--stdio "<command line>" | --url <http(s)://…>) [options]',
  client: '$0 client --command "<client command line>" [options]',
  fleet: '$0 fleet [FILE…] [--discover [--audit]] [options]',
};

const EXIT_CODES = `Exit codes:
  0  no failures (per --fail-on)
  1  conformance failures (or, with --fail-on-host, a tool one of those hosts blocks)
  2  usage or configuration error
  3  the target could not be audited (did not start, unreachable, stopped answering)
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM; the target is killed, no report is written`;

const EPILOG = `${EXIT_CODES}

Name a target with --stdio, --url or --from-snapshot; --reference-server audits the bundled reference server \
(also what runs on a terminal when no target is named; without a terminal, e.g. in CI, naming none is a usage error).

The options of the other commands: mcp-tools-conformance <command> --help.`;

const NOT_AUDITED = 'the target could not be audited (did not start, unreachable, stopped answering)';
const CLIENT_EXIT_CODES = EXIT_CODES.replace(
  NOT_AUDITED,
  'the client could not be audited (hung, crashed, not started)',
);
const FLEET_EXIT_CODES = EXIT_CODES.replace('1  conformance failures', '1  a server is failing').replace(
  NOT_AUDITED,
  'with --fail-on-unavailable: a server could not be audited',
);

/** What each command's --help ends with. */
export const EPILOGS: Readonly<Record<Command, string>> = {
  run: EPILOG,
  snapshot: EPILOG,
  baseline: EPILOG,
  lock: EPILOG,
  client: `${CLIENT_EXIT_CODES}

The client gets the scripted server's URL as its last argument (also in MCP_CONFORMANCE_URL), or over stdio \
the command that starts it in MCP_CONFORMANCE_SERVER_COMMAND; see README "Audit your client".`,
  fleet: `${FLEET_EXIT_CODES}

Each server's target, env, cwd and headers come from its host file: --stdio, --url, --env, --header and the other \
options of one target are errors here. --allow-tools names the server of each tool: server:tool.`,
};
