import type { Exchange } from './exchange.js';

/** What a call did to one path: made it, changed its content or type, or removed it. */
export type EffectKind = 'created' | 'modified' | 'deleted';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/**
 * One change a sandboxed server made to the filesystem it could write: never its contents, only where, what kind and
 * how large. `root` is the folder the path is relative to: an overlaid path as the server saw it (`/home/u/data`), or
 * `$HOME`, `$TMPDIR` for the sandbox's scratch folders.
 */
export interface FileEffect {
  root: string;
  /** Relative to `root`, `/`-separated. */
  path: string;
  kind: EffectKind;
  type: EntryType;
  /** Bytes after the change (created, modified), or before it (deleted); files and symlinks only. */
  size?: number;
  /** modified: the bytes it had before, when it was a file or symlink then too (a grown file may have only gained). */
  sizeBefore?: number;
}

/** Where the change is, as one path: the root and the path below it (`$TMPDIR/a.log`, `/home/u/data/memory.json`). */
export function effectPlace(effect: Pick<FileEffect, 'root' | 'path'>): string {
  return effect.path === '' ? effect.root : `${effect.root.replace(/\/$/, '')}/${effect.path}`;
}

/** One tools/call made while effects were recorded, with what changed between its request and its answer. */
export interface RecordedCall {
  tool: string;
  arguments: unknown;
  exchange: Exchange;
  /** Changes made while the call was in flight (nothing else was: every call of a sandboxed audit runs alone). */
  effects: FileEffect[];
  /** Changes found before the next call began that were not there when this one was answered (written late). */
  after: FileEffect[];
}

/** report.json's `sandbox`: how the server was contained. */
export interface SandboxSummary {
  /** `overlay`: writes land in a copy-on-write layer and are recorded; `--sandbox-network` lets the server out. */
  kind: 'overlay';
  network: boolean;
  /** The existing paths the server was pointed at, overlaid copy-on-write (writes never reach them). */
  overlays: string[];
  /** Changes made outside any call (while processes started, or before the first call), for completeness. */
  outsideCalls: FileEffect[];
  /** Changes left out of `outsideCalls` past its cap. */
  outsideCallsMore?: number;
}

/** report.json's `effects[tool]`: what each call of that tool changed (changes capped per tool). */
export interface ToolEffects {
  calls: number;
  /** Calls that changed something while in flight. */
  callsWithChanges: number;
  changes: (FileEffect & { call: number; late?: true })[];
  /** Changes left out of `changes` past the cap. */
  more?: number;
}

/** The calls of a sandboxed audit with their effects, as checks read them (CheckContext.effects). */
export interface EffectsLog {
  /** Every recorded call so far, in the order they were made. */
  calls(): readonly RecordedCall[];
  /** The recorded call whose exchange this is (what callTool returned), once it was answered. */
  of(exchange: Exchange): RecordedCall | undefined;
}
