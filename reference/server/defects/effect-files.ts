import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActiveDefects } from './active.js';

/**
 * The files the annotation defects write, under $TMPDIR (in a --sandbox audit, the sandbox's scratch folder). The clean
 * server writes no file at all.
 */
const EFFECT_FILES = {
  /** read-only-writes: search_docs (readOnlyHint: true) appends each query. */
  searchHistory: 'mtc-reference-search-history.log',
  /** non-destructive-deletes: written when the server starts, deleted by create_note (destructiveHint: false). */
  notes: 'mtc-reference-notes.json',
  /** idempotent-appends: delete_note (idempotentHint: true) appends each deletion. */
  deletions: 'mtc-reference-deletions.log',
} as const;

/** Read at each use: os.tmpdir() follows $TMPDIR. */
export const effectFile = (name: keyof typeof EFFECT_FILES): string => join(tmpdir(), EFFECT_FILES[name]);

/** The server's start: the defects set up the files their calls spoil (non-destructive-deletes: the notes file). */
export function keepNotesFile(defects: ActiveDefects): void {
  defects.at.serverStarts();
}
