import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { canonicalJson } from '../core/canonical-json.js';
import type { LockComparison } from '../model/lock.js';

export const LOCK_FORMAT = 'mcp-tools-conformance/tool-lock';
export const DEFAULT_LOCK_FILE = 'tools.lock.json';
/** What a tool's hash covers: what a client shows a model. Nothing of ours (headers, env, target command) enters it. */
export const LOCKED_FIELDS = ['name', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
type LockedField = (typeof LOCKED_FIELDS)[number];

export interface LockedTool {
  /** sha256 of the canonical JSON of the locked fields together. */
  hash: string;
  /** sha256 of each field on its own, so a change can say which field changed. */
  fields: Record<LockedField, string>;
}

export interface ToolLockFile {
  format: typeof LOCK_FORMAT;
  version: 1;
  createdAt: string;
  tools: Record<string, LockedTool>;
}

export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function lockTool(tool: Record<string, unknown>): LockedTool {
  const picked = Object.fromEntries(LOCKED_FIELDS.map((f) => [f, tool[f] ?? null]));
  const fields = Object.fromEntries(LOCKED_FIELDS.map((f) => [f, sha256(canonicalJson(picked[f]))])) as Record<
    LockedField,
    string
  >;
  return { hash: sha256(canonicalJson(picked)), fields };
}

/** The lock of a listing; tools without a string name cannot be locked and are left out. */
export function lockFrom(tools: readonly Record<string, unknown>[], createdAt: string): ToolLockFile {
  const entries = tools
    .filter((t) => typeof t.name === 'string')
    .map((t) => [t.name as string, lockTool(t)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { format: LOCK_FORMAT, version: 1, createdAt, tools: Object.fromEntries(entries) };
}

export function compareLock(
  lock: ToolLockFile,
  tools: readonly Record<string, unknown>[],
  file: string,
): LockComparison {
  const now = lockFrom(tools, lock.createdAt).tools;
  const added = Object.keys(now).filter((name) => !(name in lock.tools));
  const removed = Object.keys(lock.tools).filter((name) => !(name in now));
  const changed = Object.keys(now)
    .filter((name) => name in lock.tools && lock.tools[name]!.hash !== now[name]!.hash)
    .map((tool) => ({
      tool,
      fields: LOCKED_FIELDS.filter((f) => lock.tools[tool]!.fields[f] !== now[tool]!.fields[f]),
    }));
  const status = added.length + removed.length + changed.length === 0 ? 'match' : 'changed';
  return { file, status, added, removed, changed };
}

export function describeLockChange(comparison: LockComparison): string {
  const parts = [
    ...comparison.added.map((n) => `+${n}`),
    ...comparison.removed.map((n) => `-${n}`),
    ...comparison.changed.map((c) => `~${c.tool} (${c.fields.join(', ')})`),
  ];
  return parts.join(', ');
}

export async function readLock(path: string): Promise<ToolLockFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new LockError(`cannot read tool lock ${path}: ${(error as Error).message}`);
  }
  const lock = parsed as Partial<ToolLockFile>;
  if (lock?.format !== LOCK_FORMAT || lock.version !== 1 || typeof lock.tools !== 'object' || lock.tools === null) {
    throw new LockError(
      `${path} is not a ${LOCK_FORMAT} version 1 file (write one with: mcp-tools-conformance lock --write)`,
    );
  }
  return lock as ToolLockFile;
}

export async function writeLock(path: string, lock: ToolLockFile): Promise<void> {
  await writeFile(path, `${JSON.stringify(lock, null, 2)}\n`, 'utf8');
}
