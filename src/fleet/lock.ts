import { readFile, writeFile } from 'node:fs/promises';
import { isObject } from '../core/jsonrpc.js';
import { LOCK_FORMAT, LockError, lockFrom, type LockedTool, type ToolLockFile } from '../lock/tool-lock.js';

export const FLEET_LOCK_FORMAT = 'mcp-tools-conformance/fleet-lock';

/**
 * A tool-set lock per server of a fleet, by the server's name in its host file: each server's tools as `lock --write`
 * hashes them.
 */
export interface FleetLockFile {
  format: typeof FLEET_LOCK_FORMAT;
  version: 1;
  createdAt: string;
  servers: Record<string, { tools: Record<string, LockedTool> }>;
}

/** The fleet's lock from each server's complete listing, servers in name order. */
export function fleetLockFrom(
  listings: readonly { name: string; tools: readonly Record<string, unknown>[] }[],
  createdAt: string,
): FleetLockFile {
  const servers = [...listings]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, tools }) => [name, { tools: lockFrom(tools, createdAt).tools }] as const);
  return { format: FLEET_LOCK_FORMAT, version: 1, createdAt, servers: Object.fromEntries(servers) };
}

/**
 * One server's part of the fleet lock, as the single-target lock its audit compares with (`--lock`). A server the lock
 * does not hold gets an empty one: every tool it serves is then new, and the lock fails it.
 */
export function serverLock(lock: FleetLockFile, server: string): ToolLockFile {
  const tools = Object.hasOwn(lock.servers, server) ? lock.servers[server]!.tools : {};
  return { format: LOCK_FORMAT, version: 1, createdAt: lock.createdAt, tools };
}

/** The servers the lock holds that the fleet no longer declares: their tools are gone. */
export function serversRemoved(lock: FleetLockFile, declared: readonly string[]): string[] {
  return Object.keys(lock.servers).filter((name) => !declared.includes(name));
}

export async function readFleetLock(path: string): Promise<FleetLockFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new LockError(`cannot read fleet lock ${path}: ${(error as Error).message}`);
  }
  const lock = parsed as Partial<FleetLockFile>;
  const wellFormed =
    isObject(lock.servers) && Object.values(lock.servers).every((s) => isObject(s) && isObject(s.tools));
  if (lock?.format !== FLEET_LOCK_FORMAT || lock.version !== 1 || !wellFormed) {
    const single =
      (parsed as { format?: unknown } | null)?.format === LOCK_FORMAT
        ? ` (it is the lock of one server: use it with --lock on a single audit)`
        : '';
    throw new LockError(
      `${path} is not a ${FLEET_LOCK_FORMAT} version 1 file${single} (write one with: mcp-tools-conformance ` +
        `fleet <files> --lock-write ${path})`,
    );
  }
  return lock as FleetLockFile;
}

export async function writeFleetLock(path: string, lock: FleetLockFile): Promise<void> {
  await writeFile(path, `${JSON.stringify(lock, null, 2)}\n`, 'utf8');
}
