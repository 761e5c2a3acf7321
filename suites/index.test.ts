import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from './index.js';

describe('the registry', () => {
  it('keeps each area in one run, so the console prints each area heading once', () => {
    const runs: string[] = [];
    for (const check of ALL_CHECKS) if (runs.at(-1) !== check.area) runs.push(check.area);
    expect(runs).toEqual([...new Set(runs)]);
  });
});
