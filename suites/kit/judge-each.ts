import type { Evidence, Outcome } from '../../src/model/check.js';
import { fail, pass, skip } from './outcome.js';

/** How to judge a list of things one by one: what is wrong with one, and what to say. */
export interface EachJudgement<T> {
  /** The skip message when there is nothing to judge. */
  none: string;
  isBad(item: T): boolean;
  pass(all: readonly T[]): string;
  fail(bad: readonly T[], all: readonly T[]): string;
  /** What was expected; a function when it depends on what was found. */
  expected: string | ((bad: readonly T[]) => string);
  evidence(item: T): Evidence;
  /** How many bad items are kept as evidence (5 by default). */
  evidenceLimit?: number;
}

/** Skip when there is nothing, pass when nothing is bad, else one failure with the first bad items as evidence. */
export function judgeEach<T>(items: readonly T[], judgement: EachJudgement<T>): Outcome[] {
  if (items.length === 0) return [skip(judgement.none)];
  const bad = items.filter((item) => judgement.isBad(item));
  if (bad.length === 0) return [pass(judgement.pass(items))];
  const expected = typeof judgement.expected === 'string' ? judgement.expected : judgement.expected(bad);
  return [
    fail(
      judgement.fail(bad, items),
      expected,
      bad.slice(0, judgement.evidenceLimit ?? 5).map((item) => judgement.evidence(item)),
    ),
  ];
}
