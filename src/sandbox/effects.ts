import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EffectKind, EntryType, FileEffect } from '../model/effects.js';

/** Entries one snapshot records at most, over all its roots. */
export const MAX_ENTRIES = 20_000;
const HASH_LIMIT = 16 * 1024 * 1024;

export interface EntryState {
  type: EntryType;
  size: number;
  /** A file's sha256 (or, past 16 MiB, its size and mtime); a symlink's target. */
  fingerprint?: string;
}

/** `null`: absent. */
type Entries = Map<string, EntryState | null>;

export interface RootState {
  entries: Entries;
  /** Set when the entry bound cut the walk: only paths up to this one in walk order were seen ('' none). */
  cut?: string;
}

/** What the writable paths held at one moment (opaque: compare two with Sandbox.changes). */
export interface SandboxState {
  /** The entry bound cut the walk: changes past it are not reported. */
  readonly truncated: boolean;
  readonly roots: ReadonlyMap<string, RootState>;
}

/** A scratch folder, walked whole. */
export interface ScratchRoot {
  kind: 'scratch';
  label: string;
  dir: string;
}

/** An overlaid path: what its upper layer holds is read from the merged view and compared with the lower path. */
export interface OverlayRoot {
  kind: 'overlay';
  label: string;
  upper: string;
  /** The merged view, as the holder's mount namespace shows it (`/proc/<pid>/root/<path>`). */
  merged: string;
  lower: string;
  /** Relative paths whose changes are not effects (package caches, hidden folders). */
  skip: ReadonlySet<string>;
}

export type WalkRoot = ScratchRoot | OverlayRoot;

/** File digests by path, reused while the file's inode, size and times are the same. */
export class Fingerprints {
  private readonly known = new Map<string, { key: string; digest: string }>();

  async of(path: string, stats: Stats): Promise<string> {
    if (stats.size > HASH_LIMIT) return `big:${stats.size}:${stats.mtimeMs}`;
    const key = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    const known = this.known.get(path);
    if (known?.key === key) return known.digest;
    let digest: string;
    try {
      digest = await sha256(path);
    } catch {
      return `unreadable:${stats.size}:${stats.mtimeMs}`;
    }
    if (this.known.size >= 4 * MAX_ENTRIES) this.known.clear();
    this.known.set(path, { key, digest });
    return digest;
  }
}

function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export async function readState(path: string, fingerprints: Fingerprints): Promise<EntryState | null> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { type: 'other', size: 0, fingerprint: `unreadable:${code}` };
  }
  if (stats.isDirectory()) return { type: 'directory', size: 0 };
  if (stats.isSymbolicLink())
    return { type: 'symlink', size: stats.size, fingerprint: await readlink(path).catch(() => '?') };
  if (stats.isFile()) return { type: 'file', size: stats.size, fingerprint: await fingerprints.of(path, stats) };
  return { type: 'other', size: 0 };
}

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

const childOf = (rel: string, name: string) => (rel === '' ? name : `${rel}/${name}`);

/** Walk order (depth first, names in code-unit order) as a comparison of relative paths. */
export function walkOrder(a: string, b: string): number {
  const left = a === '' ? [] : a.split('/');
  const right = b === '' ? [] : b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}

class Recorder {
  readonly state: RootState = { entries: new Map() };
  private last = '';

  constructor(private readonly budget: { left: number }) {}

  /** False when the bound is reached: the walk stops. */
  record(rel: string, entry: EntryState | null): boolean {
    if (this.budget.left <= 0) {
      this.state.cut = this.last;
      return false;
    }
    this.budget.left--;
    this.state.entries.set(rel, entry);
    this.last = rel;
    return true;
  }
}

async function walkScratch(
  root: ScratchRoot,
  recorder: Recorder,
  fingerprints: Fingerprints,
  rel = '',
): Promise<boolean> {
  for (const name of (await names(join(root.dir, rel))).sort()) {
    const child = childOf(rel, name);
    const state = await readState(join(root.dir, child), fingerprints);
    if (!recorder.record(child, state)) return false;
    if (state?.type === 'directory' && !(await walkScratch(root, recorder, fingerprints, child))) return false;
  }
  return true;
}

interface OverlayWalk {
  root: OverlayRoot;
  recorder: Recorder;
  fingerprints: Fingerprints;
  /** The lower path's state by relative path: read once, since the lower path does not change. */
  lower: Entries;
}

async function lowerState(walk: OverlayWalk, rel: string): Promise<EntryState | null> {
  if (!walk.lower.has(rel)) walk.lower.set(rel, await readState(join(walk.root.lower, rel), walk.fingerprints));
  return walk.lower.get(rel)!;
}

/**
 * Lower entries the merged view no longer shows that the upper layer does not name: the children of a folder that was
 * removed and made again (an opaque folder).
 */
async function goneFromLower(walk: OverlayWalk, rel: string, upperNames: ReadonlySet<string>): Promise<string[]> {
  if ((await lowerState(walk, rel))?.type !== 'directory') return [];
  const merged = new Set(await names(join(walk.root.merged, rel)));
  return (await names(join(walk.root.lower, rel))).filter((name) => !merged.has(name) && !upperNames.has(name));
}

async function walkOverlay(walk: OverlayWalk, rel = ''): Promise<boolean> {
  const upper = await readdir(join(walk.root.upper, rel), { withFileTypes: true }).catch(() => []);
  const upperDirs = new Set(upper.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
  const upperNames = new Set(upper.map((entry) => entry.name));
  const all = [...upperNames, ...(await goneFromLower(walk, rel, upperNames))].sort();
  for (const name of all) {
    const child = childOf(rel, name);
    if (walk.root.skip.has(child)) continue;
    const state = upperNames.has(name) ? await readState(join(walk.root.merged, child), walk.fingerprints) : null;
    await lowerState(walk, child);
    if (!walk.recorder.record(child, state)) return false;
    if (upperDirs.has(name) && state?.type === 'directory' && !(await walkOverlay(walk, child))) return false;
  }
  return true;
}

/** Every root's entries, `limit` in all. `lowers` keeps each overlay's lower states across snapshots. */
export async function takeSnapshot(
  roots: readonly WalkRoot[],
  fingerprints: Fingerprints,
  lowers: Map<string, Entries>,
  limit = MAX_ENTRIES,
): Promise<SandboxState> {
  const budget = { left: limit };
  const states = new Map<string, RootState>();
  for (const root of roots) {
    const recorder = new Recorder(budget);
    if (root.kind === 'scratch') await walkScratch(root, recorder, fingerprints);
    else {
      if (!lowers.has(root.label)) lowers.set(root.label, new Map());
      await walkOverlay({ root, recorder, fingerprints, lower: lowers.get(root.label)! });
    }
    states.set(root.label, recorder.state);
  }
  return { roots: states, truncated: [...states.values()].some((state) => state.cut !== undefined) };
}

const covers = (state: RootState, rel: string) => state.cut === undefined || walkOrder(rel, state.cut) <= 0;

const sized = (state: EntryState) => (state.type === 'file' || state.type === 'symlink' ? { size: state.size } : {});

function effectOf(before: EntryState | null, after: EntryState | null): Omit<FileEffect, 'root' | 'path'> | undefined {
  if (before === null && after === null) return undefined;
  const change = (kind: EffectKind, state: EntryState) => ({ kind, type: state.type, ...sized(state) });
  if (before === null) return change('created', after!);
  if (after === null) return change('deleted', before);
  if (before.type !== after.type) return change('modified', after);
  if (after.type === 'directory') return undefined;
  const changed = before.size !== after.size || before.fingerprint !== after.fingerprint;
  return changed ? { ...change('modified', after), sizeBefore: before.size } : undefined;
}

const parentOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));

/**
 * What changed from one snapshot to the next, sorted by root then path. An overlay path absent from a snapshot is as
 * the lower path is; a folder's deletion stands for what it held. Past a snapshot's bound nothing is reported.
 */
export function compareSnapshots(
  before: SandboxState,
  after: SandboxState,
  lowers: ReadonlyMap<string, Entries>,
): FileEffect[] {
  const effects: FileEffect[] = [];
  for (const [label, was] of before.roots) {
    const now = after.roots.get(label);
    if (now === undefined) continue;
    const lower = lowers.get(label);
    const stateIn = (root: RootState, rel: string) =>
      root.entries.has(rel) ? root.entries.get(rel)! : (lower?.get(rel) ?? null);
    const deletedFolders = new Set<string>();
    const paths = [...new Set([...was.entries.keys(), ...now.entries.keys()])].sort(walkOrder);
    for (const path of paths) {
      if (!covers(was, path) || !covers(now, path)) continue;
      const effect = effectOf(stateIn(was, path), stateIn(now, path));
      if (effect === undefined) continue;
      const folderGone = effect.kind === 'deleted' && effect.type === 'directory';
      if (folderGone) deletedFolders.add(path);
      if (effect.kind === 'deleted' && deletedFolders.has(parentOf(path))) continue;
      effects.push({ root: label, path, ...effect });
    }
  }
  return effects.sort((a, b) =>
    a.root !== b.root ? (a.root < b.root ? -1 : 1) : a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
}
