import { join, resolve } from 'node:path';
import { LISTING_FILE } from './listing.js';
import type { FleetEntry } from '../../model/fleet.js';
import { joinCommandLine } from '../../transport/command-line.js';

/** The audit options every server's audit gets, as command-line flags of a single audit (limits, checks, fail-on…). */
export interface ServerAuditFlags {
  /** Flags passed unchanged to each server's audit. */
  common: string[];
  /** --allow-tools server:tool, by server. */
  allowTools: Readonly<Record<string, readonly string[]>>;
  /** The reporters of each server's audit (json at least: the fleet reads its report.json); default json. */
  reporters?: string;
  /** --http-connections for the servers reached by URL (stdio ones have one connection); default: the audit's own. */
  httpConnections?: number;
  /** --sandbox (and --sandbox-network), for the servers the audit starts: a server reached by URL keeps safe mode. */
  sandbox?: readonly string[];
  /** --hosts: each audit is told the entry's name, which the hosts put in front of its tool names (--server-name). */
  hosts?: boolean;
}

/** How one entry is audited: our CLI's arguments, and the options that must not show on a command line (secrets). */
export interface AuditInvocation {
  args: string[];
  /** Written to a private --config file: env and header values stay out of `ps`. */
  config: { env?: Record<string, string>; header?: Record<string, string> };
}

/**
 * The single audit of one entry: `--stdio` with its command line and `--cwd`, or `--url` (an sse entry too: the audit
 * finds the HTTP+SSE transport behind the URL itself); its reports (report.json at least) and its listing (tools.json)
 * into `outputDir` (absolute: the audit runs in a folder of its own). With `lockFile` (its part of a fleet lock), its
 * tools are compared with that lock as `--lock` compares them.
 */
export function invocationOf(
  entry: FleetEntry,
  flags: ServerAuditFlags,
  outputDir: string,
  defaultCwd: string,
  lockFile?: string,
): AuditInvocation {
  const allowed = flags.allowTools[entry.name] ?? [];
  const common = [
    ...flags.common,
    ...(allowed.length > 0 ? ['--allow-tools', allowed.join(',')] : []),
    '--reporter',
    flags.reporters ?? 'json',
    '--output-dir',
    outputDir,
    '--snapshot-out',
    join(outputDir, LISTING_FILE),
    ...(lockFile !== undefined ? ['--lock', lockFile] : []),
    ...(flags.hosts ? ['--server-name', entry.name] : []),
  ];
  if (entry.transport === 'stdio') {
    const env = entry.env ?? {};
    return {
      args: [
        '--stdio',
        joinCommandLine([entry.command!, ...(entry.args ?? [])]),
        '--cwd',
        resolve(defaultCwd, entry.cwd ?? '.'),
        ...common,
        ...(flags.sandbox ?? []),
      ],
      config: Object.keys(env).length > 0 ? { env: { ...env } } : {},
    };
  }
  const headers = entry.headers ?? {};
  const connections = flags.httpConnections === undefined ? [] : ['--http-connections', String(flags.httpConnections)];
  return {
    args: ['--url', entry.url!, ...connections, ...common],
    config: Object.keys(headers).length > 0 ? { header: { ...headers } } : {},
  };
}

/** Whether the entry at `position` (0-based, in file order) is in --shard i/n: every n-th entry, from the i-th. */
export function inShard(position: number, shard: { index: number; count: number } | undefined): boolean {
  return shard === undefined || position % shard.count === shard.index - 1;
}

/** A folder name for each server's report, unique within the fleet and safe on every file system. */
export function safeNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base =
      name
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 64) || 'server';
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
