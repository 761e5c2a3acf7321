import { governingSentence, keywordClass, revisionsOf, type SpecSentence, type SpecSentences } from '../model/check.js';
import { REVISIONS, type Revision } from '../core/revision.js';
import { specUrl } from '../spec-links.js';

/** What marks a row whose sentences are not the same on every revision (search CONFORMANCE.md for it). */
export const DIFFERS = '≠';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const same = (a: readonly SpecSentence[], b: readonly SpecSentence[]) =>
  a.length === b.length &&
  a.every((s, i) => s.ref === b[i]!.ref && s.text === b[i]!.text && s.keyword === b[i]!.keyword);

/**
 * One cell per revision, newest first: the sentences the check enforces there (keyword, link into that revision,
 * verbatim text), `—` where it has none (the check does not apply), or "same as <revision>" where they are exactly
 * those of the newer revision written out to its left.
 */
export function sentenceCells(check: { sentences: SpecSentences }): string[] {
  let written: { wire: Revision; sentences: readonly SpecSentence[] } | undefined;
  return REVISIONS.map((wire) => {
    const sentences = check.sentences[wire] ?? [];
    if (sentences.length === 0) {
      written = undefined;
      return '—';
    }
    if (written && same(written.sentences, sentences)) return `same as ${written.wire}`;
    written = { wire, sentences };
    return sentences.map((s) => `${s.keyword}, [${s.ref}](${specUrl(s.ref, wire)}): “${cell(s.text)}”`).join('; ');
  });
}

/** Where a check applies, when not in every revision: from a revision on, up to one, or only on some. */
function applies(wires: readonly Revision[]): string {
  const first = REVISIONS.indexOf(wires[0]!);
  const contiguous = wires.every((wire, i) => REVISIONS[first + i] === wire);
  const oldest = wires[wires.length - 1]!;
  if (wires.length > 1 && contiguous && first === 0) return `from ${oldest} on`;
  if (wires.length > 1 && contiguous && first + wires.length === REVISIONS.length) return `up to ${wires[0]}`;
  if (wires.length > 1 && contiguous) return `only on ${wires[0]} to ${oldest}`;
  return `only on ${wires.join(', ')}`;
}

/**
 * How a check's sentences vary across revisions, for the column that makes those rows easy to find: empty when they
 * are the same on every revision, else {@link DIFFERS} and what differs: where it applies, its keyword class (a fail on
 * one revision, a warn on another), its wording.
 */
export function acrossRevisions(check: { sentences: SpecSentences }): string {
  const wires = revisionsOf(check);
  if (wires.length === 0) return '';
  const parts: string[] = [];
  if (wires.length < REVISIONS.length) parts.push(`applies ${applies(wires)}`);
  const classes = new Map<string, Revision[]>();
  for (const wire of wires) {
    const keyword = keywordClass(governingSentence(check, wire)!.keyword);
    classes.set(keyword, [...(classes.get(keyword) ?? []), wire]);
  }
  if (classes.size > 1) parts.push([...classes].map(([keyword, on]) => `${keyword} on ${on.join(', ')}`).join(', '));
  if (wires.some((wire, i) => i > 0 && !same(check.sentences[wires[i - 1]!]!, check.sentences[wire]!)))
    parts.push('sentences differ');
  return parts.length === 0 ? '' : `${DIFFERS} ${parts.join('; ')}`;
}
