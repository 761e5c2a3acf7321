import { REVISIONS, type CheckDefinition, type KeywordText, type SpecSentence, type SpecSentences } from './index.js';

/** The sentence a check's verdicts are labelled by: the first one quoted for the newest revision it applies to. */
export function governingSentence(sentences: SpecSentences): SpecSentence {
  const newest = REVISIONS.find((wire) => (sentences[wire]?.length ?? 0) > 0);
  if (newest === undefined) throw new Error('a check quotes no sentence');
  return sentences[newest]![0]!;
}

/**
 * A check's `keyword` and `specRef` from its governing sentence, for server and client checks alike; a `specRef` given
 * names the page section to link when it is not that sentence's own (a schema.json rule explained on a page).
 */
export function governed<T extends { sentences: SpecSentences; specRef?: string }>(
  definition: T,
): T & { keyword: KeywordText; specRef: string } {
  const governing = governingSentence(definition.sentences);
  return { ...definition, keyword: governing.keyword, specRef: definition.specRef ?? governing.ref };
}

/** A server check: what its author writes, without the `keyword` and `specRef` its sentences already say. */
export function defineCheck(
  definition: Omit<CheckDefinition, 'keyword' | 'specRef'> & { specRef?: string },
): CheckDefinition {
  return governed(definition);
}
