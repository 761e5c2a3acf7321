import { REVISIONS } from '../../core/revision.js';
import { REPORTER_NAMES } from '../../report/names.js';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../../property/seeds.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../transport/sequence.js';
import { SCENARIOS } from '../../client-mode/scenarios.js';
import { HOST_NAMES } from '../../model/hosts.js';
import { CONFIG_FILE, PACKAGE_KEY } from '../config-file.js';

export const MAX_SEED = 0x7fffffff;
/** The longest delay Node's timers take: a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 0x7fffffff;
/** Below this --timeout, the run starts with a notice: few servers answer that fast. */
export const SHORT_TIMEOUT_MS = 100;
export const MAX_RUNS = 100_000;
export const MAX_HTTP_CONNECTIONS = 32;
/** --timeout when not given. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Every option, as yargs declares it; the quick parse (args.ts) derives yargs-parser's settings from the same table.
 */
export const OPTIONS = {
  stdio: { type: 'string', describe: 'spawn the target and talk newline-delimited JSON-RPC over its stdin/stdout' },
  url: { type: 'string', describe: 'Streamable HTTP MCP endpoint of the target' },
  'from-snapshot': { type: 'string', describe: 'run every static check on a saved snapshot instead of a live target' },
  header: {
    type: 'string',
    array: true,
    describe: 'extra HTTP header "Name: value" (repeatable; values never reach reports)',
  },
  'protocol-version': {
    choices: ['auto', ...REVISIONS] as const,
    default: 'auto' as const,
    describe:
      'revision to offer: auto probes server/discover, then initialize with the newest; an initialize revision ' +
      'is offered as it is; 2026-07-28 is discover only',
  },
  revisions: {
    type: 'string',
    array: true,
    describe:
      `all, or revisions (comma-separated or repeated: ${REVISIONS.join(', ')}): one audit per revision, ` +
      `each offering it, in one report with a matrix of checks by revision; a revision the target does not take ` +
      `is reported as not supported`,
  },
  checks: { type: 'string', array: true, describe: 'only run these check IDs or globs (comma-separated or repeated)' },
  'exclude-checks': { type: 'string', array: true, describe: 'skip these check IDs or globs' },
  list: { type: 'boolean', default: false, describe: 'print the catalog of checks and exit' },
  reporter: {
    type: 'string',
    default: 'console,json,junit',
    describe: `comma-separated: ${REPORTER_NAMES.join(', ')} (fleet: all but github)`,
  },
  'output-dir': {
    type: 'string',
    default: 'reports',
    describe: 'folder for the report files (report.json, junit.xml, report.html)',
  },
  'fail-on': {
    type: 'string',
    default: 'must',
    describe: 'must or should (any case): which violations make the exit code 1',
  },
  'fail-on-stale': {
    type: 'boolean',
    default: false,
    describe: 'with --baseline: entries that no longer fail (stale) make the exit code 1 too',
  },
  color: {
    type: 'boolean',
    describe:
      'colours on the console: --color forces them, --no-color turns them off (default: on a TTY, unless ' +
      'NO_COLOR is set)',
  },
  'reference-server': {
    type: 'boolean',
    describe: 'audit the bundled reference server over stdio (what runs when no target is named on a terminal)',
  },
  timeout: { type: 'number', default: DEFAULT_TIMEOUT_MS, describe: 'per-request timeout in ms' },
  'max-duration': {
    type: 'number',
    default: 300_000,
    describe: 'budget for the whole run in ms (fleet: for each server)',
  },
  'max-message-bytes': {
    type: 'number',
    default: DEFAULT_MAX_MESSAGE_BYTES,
    describe:
      'largest message accepted from the target (a stdout line, an HTTP body, an SSE event); a bigger one is a ' +
      'target failure',
  },
  'max-rps': {
    type: 'number',
    describe:
      'at most this many requests per second over all connections (fractional allowed: 0.5 = one every 2 s); ' +
      'default: no cap',
  },
  concurrency: { type: 'number', default: 4, describe: 'checks run at once' },
  'http-connections': {
    type: 'number',
    describe:
      `--url: kept-alive connections to the target (1-${MAX_HTTP_CONNECTIONS}; default: --concurrency); ` +
      `tool calls are spread over them, list walks and everything else stay on the first (1 for a server that ` +
      `needs every request on one connection)`,
  },
  'junit-properties': {
    type: 'boolean',
    default: false,
    describe:
      'put requirement, keyword and specRef in per-testcase <properties> (not valid under the Jenkins xUnit XSD)',
  },
  'allow-tools': {
    type: 'string',
    array: true,
    describe:
      'also call these tools (comma-separated or repeated; fleet: server:tool); by default only tools ' +
      'annotated readOnlyHint: true are called',
  },
  'allow-all-tools': {
    type: 'boolean',
    default: false,
    describe: 'call any tool, including ones that may have side effects (on your real data)',
  },
  sandbox: {
    type: 'boolean',
    default: false,
    describe:
      'stdio targets on Linux: run the server in a throwaway bubblewrap sandbox (writes land in a ' +
      'copy-on-write layer, no network), call every tool and report what each call changed',
  },
  'sandbox-network': {
    type: 'boolean',
    default: false,
    describe: 'with --sandbox: let the server reach the network (external side effects become possible)',
  },
  'skip-tools': {
    type: 'string',
    array: true,
    describe:
      'never call these tools, read-only or allowed (comma-separated or repeated): for tools that are slow or costly',
  },
  'list-changed-trigger': {
    type: 'string',
    describe:
      'a tool whose call changes the tool set; called twice (change, then undo) to test ' +
      'notifications/tools/list_changed',
  },
  env: {
    type: 'string',
    array: true,
    describe: "NAME=value added to the --stdio target's environment (repeatable); values are kept out of every report",
  },
  baseline: {
    type: 'string',
    describe:
      `known failures: only failures it does not list fail the run; entries that now pass are reported as ` +
      `stale (baseline --write creates it; default file ${'mcp-conformance-baseline.json'})`,
  },
  lock: {
    type: 'string',
    describe:
      'tool-set lock: the run fails when a tool was added, removed or changed since the lock was written (lock ' +
      '--write creates it; fleet: a fleet lock, written by fleet --lock-write)',
  },
  'lock-write': {
    type: 'string',
    describe:
      "fleet: write a fleet lock, each server's tools by server name, to this file (compare with it: fleet " +
      '--lock <file>)',
  },
  write: {
    type: 'string',
    describe:
      'with the baseline or lock command: the file to write (baseline --write <file>; default: ' +
      '--baseline/--lock, else the default file)',
  },
  'sarif-artifact': {
    type: 'string',
    describe:
      'repository-relative path the SARIF findings are filed under (code scanning needs one; default "mcp-server")',
  },
  'list-changed-args': { type: 'string', describe: 'JSON object of arguments for --list-changed-trigger (default {})' },
  seed: {
    type: 'number',
    default: DEFAULT_SEED,
    describe: `property-based checks: fast-check seed, 0…${MAX_SEED} (fixed by default, so audits repeat)`,
  },
  runs: {
    type: 'number',
    default: DEFAULT_RUNS,
    describe: 'property-based checks: generated cases per tool and property',
  },
  replay: {
    type: 'string',
    describe: 'property-based checks: re-run one case, <tool>@<path> as printed in a replay line',
  },
  verbose: {
    type: 'boolean',
    default: false,
    describe: 'console: pass messages, every skip on its own line, and the JSON of each exchange',
  },
  quiet: {
    type: 'boolean',
    default: false,
    describe: 'console: failures only (no line per check; the summary and the list of fails, warnings and errors)',
  },
  command: {
    type: 'string',
    describe: 'client: the command line of the client under test (its driver; see README "Client mode")',
  },
  scenario: {
    type: 'string',
    array: true,
    describe: `client: only these scenarios (names or globs, comma-separated or repeated): ${SCENARIOS.join(', ')}`,
  },
  transport: {
    choices: ['http', 'stdio'] as const,
    describe: 'client: how the client reaches the scripted server (default http)',
  },
  cwd: { type: 'string', describe: 'working directory of the --stdio target (default: the current one)' },
  'snapshot-out': {
    type: 'string',
    describe:
      'also save the tool listing the audit walked as a snapshot in this file (for --from-snapshot; secrets scrubbed)',
  },
  discover: {
    type: 'boolean',
    default: false,
    describe:
      'fleet: list the host config files found in the usual user and project places (audited only with --audit)',
  },
  audit: { type: 'boolean', default: false, describe: 'fleet --discover: audit the servers of the files found' },
  jobs: { type: 'number', describe: 'fleet: servers audited at once (default: the number of cores)' },
  shard: {
    type: 'string',
    describe:
      'fleet: i/n, audit only the i-th of n slices of the servers, by their order in the files (for a CI matrix)',
  },
  'fail-on-unavailable': {
    type: 'boolean',
    default: false,
    describe:
      'fleet: a server that could not be audited (could not start, unreachable, needs a secret, timed out, ' +
      'invalid entry) makes the exit code 3',
  },
  hosts: {
    type: 'string',
    array: true,
    describe:
      `host compatibility of every listed tool: all, or hosts (comma-separated or repeated: ` +
      `${HOST_NAMES.join(', ')}); works / degraded / blocked per host and tool, by rules quoting each host's ` +
      `documentation or code; never changes a check's verdict or the exit code`,
  },
  'fail-on-host': {
    type: 'string',
    array: true,
    describe: 'all, or hosts (as --hosts, which they are added to): a tool one of them blocks makes the exit code 1',
  },
  'server-name': {
    type: 'string',
    describe:
      "with --hosts: the server's name in the host's config, which hosts put in front of tool names (default: " +
      "the name the server reports; fleet: each entry's)",
  },
  config: {
    type: 'string',
    describe:
      `JSON file of options (default: ${CONFIG_FILE} when present, else package.json's "${PACKAGE_KEY}" ` +
      `object); flags override it`,
  },
} as const satisfies Record<string, OptionSpec>;

export interface OptionSpec {
  type?: 'string' | 'number' | 'boolean';
  array?: boolean;
  choices?: readonly string[];
  default?: unknown;
  describe: string;
}

/** Options that cannot be given together (yargs' .conflicts). */
export const CONFLICTS: readonly (readonly [string, readonly string[]])[] = [
  ['stdio', ['url']],
  ['from-snapshot', ['stdio', 'url']],
  ['reference-server', ['stdio', 'url', 'from-snapshot']],
];

export type OptionName = keyof typeof OPTIONS;

/** What parseArgs reads from the parsed command line. */
export type ParsedArgs = { _: (string | number)[] } & {
  -readonly [K in keyof typeof OPTIONS]: OptionValue<(typeof OPTIONS)[K]>;
};
type OptionValue<S> = S extends { array: true }
  ? string[] | undefined
  : S extends { type: 'number' }
    ? S extends { default: number }
      ? number
      : number | undefined
    : S extends { type: 'boolean' }
      ? boolean
      : S extends { choices: readonly (infer C)[] }
        ? C
        : S extends { default: string }
          ? string
          : string | undefined;
