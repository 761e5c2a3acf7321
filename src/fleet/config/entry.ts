import type { FleetEntry } from '../../model/fleet.js';
import { expandPlaceholders, type PlaceholderContext } from './placeholders.js';

/** What reading one entry needs from its file. */
export interface EntryContext extends PlaceholderContext {
  /** The variables of an `envFile` (path as resolved), or undefined when it cannot be read. */
  readEnvFile: (path: string) => Record<string, string> | undefined;
  /** An `envFile` path relative to the workspace folder, made whole. */
  resolvePath: (path: string) => string;
}

type Transport = FleetEntry['transport'];

/**
 * `type` as the hosts spell it. VS Code and Claude Code write stdio/http/sse; Cursor documents `streamable-http` and
 * Cline writes `streamableHttp`, both Streamable HTTP.
 */
const TYPES: Readonly<Record<string, Transport>> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamablehttp: 'http',
  sse: 'sse',
};

/**
 * One entry of a `mcpServers` or `servers` map as a FleetEntry; what is wrong with it goes in `invalid`, never thrown.
 */
export function readEntry(name: string, raw: unknown, source: string, context: EntryContext): FleetEntry {
  if (!isPlainObject(raw)) return { name, source, transport: 'stdio', invalid: 'the entry is not an object' };
  const problems: string[] = [];
  const missing: string[] = [];
  const unsupported: string[] = [];
  const expand = (text: string) => {
    const out = expandPlaceholders(text, context);
    missing.push(...out.missing);
    unsupported.push(...out.unsupported);
    return out.value;
  };
  const field = (key: string): string | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    problems.push(`"${key}" must be a string`);
    return undefined;
  };

  const command = field('command');
  // Windsurf documents `serverUrl` for remote servers, beside `url`.
  const url = field('url') ?? field('serverUrl');
  const { transport, problem } = chooseTransport(raw.type, command, url);
  if (problem !== undefined) problems.push(problem);

  const entry: FleetEntry = { name, source, transport };
  if (transport === 'stdio' && command !== undefined) {
    if (command.trim() === '') problems.push('"command" is empty');
    entry.command = expand(command);
    const args = stringList(raw.args);
    if (args === undefined) problems.push('"args" must be a list of strings');
    else if (args.length > 0) entry.args = args.map(expand);
    const env = { ...readEnvFile(field('envFile')), ...stringMap(raw.env, 'env', problems, expand) };
    if (Object.keys(env).length > 0) entry.env = env;
    const cwd = field('cwd');
    if (cwd !== undefined) entry.cwd = expand(cwd);
  } else if (transport !== 'stdio' && url !== undefined) {
    const before = missing.length + unsupported.length;
    entry.url = expand(url);
    if (missing.length + unsupported.length === before && !isHttpUrl(entry.url))
      problems.push(`"url" is not an http(s) URL: ${entry.url}`);
    const headers = stringMap(raw.headers, 'headers', problems, expand);
    if (Object.keys(headers).length > 0) entry.headers = headers;
  }
  if (raw.disabled === true || raw.enabled === false) entry.disabled = true;
  if (missing.length > 0) entry.missingSecrets = [...new Set(missing)];
  problems.push(...[...new Set(unsupported)].map((p) => `unsupported placeholder ${p}`));
  if (problems.length > 0) entry.invalid = problems.join('; ');
  return entry;

  function readEnvFile(path: string | undefined): Record<string, string> {
    if (path === undefined) return {};
    const variables = context.readEnvFile(context.resolvePath(expand(path)));
    if (variables === undefined) missing.push(`envFile:${path}`);
    return variables ?? {};
  }
}

function chooseTransport(
  type: unknown,
  command: string | undefined,
  url: string | undefined,
): { transport: Transport; problem?: string } {
  const guess: Transport = command === undefined && url !== undefined ? 'http' : 'stdio';
  if (type !== undefined) {
    const transport = typeof type === 'string' ? TYPES[type.toLowerCase()] : undefined;
    if (transport === undefined)
      return {
        transport: guess,
        problem: `unknown type ${JSON.stringify(type)} (this tool speaks stdio, http and sse)`,
      };
    if (transport === 'stdio' && command === undefined)
      return { transport, problem: `type "${String(type)}" needs a "command"` };
    if (transport !== 'stdio' && url === undefined)
      return { transport, problem: `type "${String(type)}" needs a "url"` };
    return { transport };
  }
  if (command !== undefined && url !== undefined)
    return { transport: guess, problem: 'both "command" and "url", and no "type" to choose' };
  if (command === undefined && url === undefined) return { transport: guess, problem: 'neither "command" nor "url"' };
  // A url without a type is Streamable HTTP; the transport falls back to HTTP+SSE when the server answers 404 or 405.
  return { transport: guess };
}

/** A list of strings (numbers and booleans taken as written), or undefined when it is something else. */
function stringList(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isScalar)) return undefined;
  return value.map(String);
}

/** An object of names to strings (numbers and booleans as written; null, which VS Code reads as "unset", left out). */
function stringMap(
  value: unknown,
  key: string,
  problems: string[],
  expand: (text: string) => string,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isPlainObject(value) || !Object.values(value).every((v) => v === null || isScalar(v))) {
    problems.push(`"${key}" must be an object of names to strings`);
    return {};
  }
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === null ? [] : [[k, expand(String(v))]])));
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
