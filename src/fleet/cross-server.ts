import type { FleetFinding } from '../model/fleet.js';

/** What cross-server analysis reads of one audited server: its name in the host file and its listed tools. */
export interface ServerTools {
  name: string;
  tools: { name: string; title?: string; description?: string }[];
}

/** Tool names listed per finding message; the finding's `tools` holds them all. */
const NAMED_IN_MESSAGE = 10;
/** Shorter names are too likely to be ordinary words or abbreviations in prose. */
const MIN_NAME_LENGTH = 4;
/** A single word (no separator, digit or inner capital) this long is a made-up identifier, not prose. */
const MIN_PLAIN_WORD_LENGTH = 12;

/**
 * Whether a tool name is distinctive enough that prose naming it means that tool: at least 4 characters, and either an
 * identifier by its shape (`read_file`, `get-weather`, `files.read`, `createIssue`, `v2search`) or a single word of 12
 * characters or more (`sequentialthinking`). A plain word (`search`, `fetch`, `list`, `remember`) is left out: a
 * description uses it as a word far more often than as another server's tool.
 */
export function distinctiveName(name: string): boolean {
  if ([...name].length < MIN_NAME_LENGTH) return false;
  const identifierShaped = /[_.\-0-9]/.test(name) || /[a-z][A-Z]/.test(name);
  return identifierShaped || [...name].length >= MIN_PLAIN_WORD_LENGTH;
}

/** Characters of a tool name (server/tools § Tool Names); anything else ends a token. */
const TOKEN = /[A-Za-z0-9_.-]+/g;

/**
 * The identifier-like tokens of prose: whole tokens, without the dots and hyphens that end a sentence or a dash, and
 * their dot-separated parts.
 */
export function nameTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0].replace(/[.-]+$/, '').replace(/^[.-]+/, '');
    if (token === '') continue;
    tokens.add(token);
    if (token.includes('.')) for (const part of token.split('.')) if (part !== '') tokens.add(part);
  }
  return tokens;
}

const quoted = (names: readonly string[]): string => {
  const shown = names
    .slice(0, NAMED_IN_MESSAGE)
    .map((n) => JSON.stringify(n))
    .join(', ');
  return names.length > NAMED_IN_MESSAGE ? `${shown} and ${names.length - NAMED_IN_MESSAGE} more` : shown;
};

/** Each server's tool names, once each (a server listing one name twice is a single audit's finding). */
function namesByServer(servers: readonly ServerTools[]): Map<string, Set<string>> {
  const byServer = new Map<string, Set<string>>();
  for (const server of servers) {
    const names = byServer.get(server.name) ?? new Set<string>();
    for (const tool of server.tools) names.add(tool.name);
    byServer.set(server.name, names);
  }
  return byServer;
}

/**
 * Tool names two or more servers serve: a host that does not prefix each tool with its server shows the model two tools
 * of one name. One finding per set of servers, naming every tool they share (two entries of one server share them all).
 */
function sameNames(byServer: ReadonlyMap<string, ReadonlySet<string>>): FleetFinding[] {
  const serversOf = new Map<string, string[]>();
  for (const [server, names] of byServer)
    for (const name of names) serversOf.set(name, [...(serversOf.get(name) ?? []), server]);
  const toolsOf = new Map<string, { servers: string[]; tools: string[] }>();
  for (const [name, servers] of serversOf) {
    if (servers.length < 2) continue;
    const sorted = [...servers].sort();
    const key = JSON.stringify(sorted);
    const entry = toolsOf.get(key) ?? { servers: sorted, tools: [] };
    entry.tools.push(name);
    toolsOf.set(key, entry);
  }
  return [...toolsOf.values()].map(({ servers, tools }) => {
    const sorted = [...tools].sort();
    return {
      id: 'fleet.tools.same-name',
      status: 'warn',
      message:
        `${sorted.length === 1 ? 'the tool' : `${sorted.length} tools`} ${quoted(sorted)} ` +
        `${sorted.length === 1 ? 'is' : 'are'} served by ${servers.length} servers (${quoted(servers)}): ` +
        'a host that does not prefix tool names with their server shows the model two tools of one name, and ' +
        'may call the wrong one',
      servers,
      tools: sorted,
    };
  });
}

/**
 * Descriptions that name another server's tool: text one server gives the model that steers it towards (or away from)
 * a tool it does not own (tool shadowing). Only distinctive names count (distinctiveName), matched as whole tokens and
 * with their case; a name the describing server serves itself is its own tool, not another's.
 */
function shadowing(
  servers: readonly ServerTools[],
  byServer: ReadonlyMap<string, ReadonlySet<string>>,
): FleetFinding[] {
  const owners = new Map<string, Set<string>>();
  for (const [server, names] of byServer) {
    for (const name of names) if (distinctiveName(name)) owners.set(name, (owners.get(name) ?? new Set()).add(server));
  }
  const findings: FleetFinding[] = [];
  for (const server of servers) {
    const own = byServer.get(server.name)!;
    for (const tool of server.tools) {
      if (typeof tool.description !== 'string' || tool.description === '') continue;
      const named: { tool: string; servers: string[] }[] = [];
      for (const token of nameTokens(tool.description)) {
        const others = [...(owners.get(token) ?? [])].filter((other) => other !== server.name);
        if (others.length > 0 && !own.has(token)) named.push({ tool: token, servers: others.sort() });
      }
      if (named.length === 0) continue;
      named.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
      const list = named.map(
        (n) => `${JSON.stringify(n.tool)} (${n.servers.map((s) => JSON.stringify(s)).join(', ')})`,
      );
      findings.push({
        id: 'fleet.tools.shadowing',
        status: 'warn',
        message:
          `the description of ${JSON.stringify(tool.name)} (server ${JSON.stringify(server.name)}) names ` +
          `${named.length === 1 ? 'a tool' : 'tools'} of another server: ` +
          `${list.slice(0, NAMED_IN_MESSAGE).join(', ')}` +
          `${list.length > NAMED_IN_MESSAGE ? ` and ${list.length - NAMED_IN_MESSAGE} more` : ''} — ` +
          "text one server gives the model can steer how it uses another's tools (tool shadowing)",
        servers: [server.name, ...new Set(named.flatMap((n) => n.servers))],
        tools: [tool.name, ...named.map((n) => n.tool)],
      });
    }
  }
  return findings;
}

/**
 * What only a fleet shows: tool names served by more than one server, and descriptions that name another server's
 * tools. Warnings only: neither breaks a sentence of the spec, and a host may namespace tools by server. Hidden text
 * in a tool's own fields is a single audit's check (tools.tool.hidden-text), not repeated here.
 */
export function crossServerFindings(servers: readonly ServerTools[]): FleetFinding[] {
  const byServer = namesByServer(servers);
  return [...sameNames(byServer), ...shadowing(servers, byServer)];
}
