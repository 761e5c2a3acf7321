import { appendFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActiveDefects } from './defects/active.js';

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

/**
 * non-destructive-deletes: the notes file exists before any call (only the first process of a shared $TMPDIR writes
 * it).
 */
export function keepNotesFile(defects: ActiveDefects): void {
  if (defects.has('non-destructive-deletes') && !existsSync(effectFile('notes')))
    writeFileSync(effectFile('notes'), '[]\n');
}

/** What the annotation defects write once a tool has run with valid arguments. */
export function writeToolEffects(name: string, args: Record<string, unknown>, defects: ActiveDefects): void {
  if (name === 'search_docs' && defects.has('read-only-writes')) {
    appendFileSync(effectFile('searchHistory'), `${new Date().toISOString()} ${JSON.stringify(args.query)}\n`);
  }
  if (name === 'create_note' && defects.has('non-destructive-deletes')) rmSync(effectFile('notes'), { force: true });
  if (name === 'delete_note' && defects.has('idempotent-appends')) {
    appendFileSync(effectFile('deletions'), `${new Date().toISOString()} delete ${JSON.stringify(args.id)}\n`);
  }
}
