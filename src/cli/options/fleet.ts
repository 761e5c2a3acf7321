import { availableParallelism } from 'node:os';
import type { ReporterName } from '../../report/names.js';
import { parsePatterns } from '../../runner/registry.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './commands.js';
import type { ParsedArgs } from './table.js';

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

/** What a fleet report is written as (github's annotations are a single audit's). */
export const FLEET_REPORTERS: readonly ReporterName[] = ['console', 'json', 'junit', 'sarif', 'markdown', 'html'];

/** Options that name one target or belong to one server's audit: a fleet takes them from its files, per server. */
export const NOT_FOR_FLEET = [
  'stdio',
  'url',
  'from-snapshot',
  'reference-server',
  'header',
  'env',
  'baseline',
  'revisions',
  'list-changed-trigger',
  'replay',
  'list',
  'server-name',
] as const;

/** The fleet command's options, and the usage errors of options that do not go with it. */
export function fleetOptions(
  command: Command,
  args: ParsedArgs,
  files: string[],
  reporters: string[],
): FleetOptions | undefined {
  if (command !== 'fleet') {
    const given =
      (['discover', 'audit', 'fail-on-unavailable'] as const).find((name) => args[name]) ??
      (['jobs', 'shard', 'lock-write'] as const).find((name) => args[name] !== undefined);
    if (given) throw new UsageError(`--${given} goes with the fleet command (mcp-tools-conformance fleet <mcp.json>…)`);
    return undefined;
  }
  const misplaced = NOT_FOR_FLEET.find((name) => args[name] !== undefined && args[name] !== false);
  if (misplaced)
    throw new UsageError(
      `--${misplaced} does not go with fleet: each server's target, env and headers come from its host file`,
    );
  const unsupported = reporters.filter((r) => !(FLEET_REPORTERS as readonly string[]).includes(r));
  if (unsupported.length > 0)
    throw new UsageError(`fleet writes the ${FLEET_REPORTERS.join(', ')} reports, not ${unsupported.join(', ')}`);
  if (args.audit && !args.discover)
    throw new UsageError('--audit goes with --discover (named files are always audited)');
  if (files.length === 0 && !args.discover)
    throw new UsageError('fleet needs host config files (mcp.json, claude_desktop_config.json, …) or --discover');
  const jobs = args.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs must be a whole number of at least 1');
  const shard = args.shard === undefined ? undefined : parseShard(String(args.shard));
  const lockWrite = args['lock-write'];
  if (lockWrite !== undefined) {
    if (lockWrite.trim() === '') throw new UsageError('--lock-write needs a file');
    if (args.lock !== undefined)
      throw new UsageError('--lock compares with a fleet lock and --lock-write writes one: choose one');
    if (shard)
      throw new UsageError(
        '--lock-write needs every server of the fleet: a shard would write a lock of some of them only',
      );
  }
  if (args.lock !== undefined && String(args.lock).trim() === '') throw new UsageError('--lock needs a file');
  const allowTools: Record<string, string[]> = {};
  for (const item of parsePatterns(args['allow-tools']?.map(String))) {
    const colon = item.lastIndexOf(':');
    if (colon <= 0 || colon === item.length - 1)
      throw new UsageError(
        `--allow-tools in a fleet names the server of each tool: server:tool, got ${JSON.stringify(item)}`,
      );
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

/** --shard i/n: 1 ≤ i ≤ n. */
export function parseShard(raw: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(index >= 1 && count >= 1 && index <= count))
    throw new UsageError(`--shard must look like i/n with 1 ≤ i ≤ n (e.g. 2/4), got ${JSON.stringify(raw)}`);
  return { index, count };
}
