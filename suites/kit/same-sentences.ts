import type { SpecSentence, SpecSentences } from '../../src/model/check.js';
import { compareRevisions, isInitializeRevision, REVISIONS, type Revision } from '../../src/core/revision.js';

/** The revisions from `first` on, newest first. */
export const since = (first: Revision): Revision[] => REVISIONS.filter((wire) => compareRevisions(wire, first) >= 0);

/**
 * The initialize revisions of Streamable HTTP, its sessions and its GET stream: from 2025-03-26 (2026-07-28 has none of
 * them).
 */
export const STREAMABLE_HTTP_SESSION_REVISIONS: readonly Revision[] = since('2025-03-26').filter(isInitializeRevision);

/** Each of `wires` with the sentences `of` gives it (for a rule whose words or pointers differ between revisions). */
export function perRevision(wires: readonly Revision[], of: (wire: Revision) => SpecSentence[]): SpecSentences {
  return Object.fromEntries(wires.map((wire) => [wire, of(wire)]));
}

/** For a requirement whose sentences read the same in each of `wires` (same page, same heading). */
export const onRevisions = (wires: readonly Revision[], ...sentences: SpecSentence[]): SpecSentences =>
  perRevision(wires, () => sentences);

/** For a requirement whose sentences read the same in every revision from `first` on. */
export const fromRevision = (first: Revision, ...sentences: SpecSentence[]): SpecSentences =>
  onRevisions(since(first), ...sentences);

/**
 * A rule of schema.json at `path` below its definitions, which 2025-11-25 and later keep under `$defs` and earlier
 * revisions under `definitions`; `text` is the JSON value at that place.
 */
export function schemaRule(wire: Revision, path: string, text: string): SpecSentence {
  return {
    ref: `schema.json#/${compareRevisions(wire, '2025-11-25') >= 0 ? '$defs' : 'definitions'}/${path}`,
    text,
    keyword: 'schema.json structural rule',
  };
}
