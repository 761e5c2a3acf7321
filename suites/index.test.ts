import { CLIENT_CHECKS } from './client/index.js';
import { governingSentence } from './kit/define-check.js';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../src/runner/types.js';
import { ALL_CHECKS } from './index.js';

describe('the registry', () => {
  it('keeps each area in one run, so the console prints each area heading once', () => {
    const runs: string[] = [];
    for (const check of ALL_CHECKS) if (runs.at(-1) !== check.area) runs.push(check.area);
    expect(runs).toEqual([...new Set(runs)]);
  });

  it('lists the areas in the order AREAS gives them (the order reports show)', () => {
    const runs: string[] = [];
    for (const check of ALL_CHECKS) if (runs.at(-1) !== check.area) runs.push(check.area);
    expect(runs).toEqual(AREAS.filter((area) => runs.includes(area)));
  });

  it("labels every check, server's and client's, with the keyword of its governing sentence (defineCheck)", () => {
    for (const check of [...ALL_CHECKS, ...CLIENT_CHECKS])
      expect([check.id, check.keyword]).toEqual([check.id, governingSentence(check.sentences).keyword]);
  });
});
