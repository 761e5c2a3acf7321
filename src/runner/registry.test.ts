import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from './types.js';
import { assertUniqueIds, parsePatterns, selectChecks } from './registry.js';

const check = (id: string) => ({ id }) as CheckDefinition;
const all = ['discover.must-implement', 'cache.server.hints', 'cache.server.ttl-nonneg', 'tools.name.unique'].map(
  check,
);

describe('check selection', () => {
  it('takes IDs and globs, comma-separated or repeated', () => {
    expect(parsePatterns(['cache.*, tools.name.unique', 'x'])).toEqual(['cache.*', 'tools.name.unique', 'x']);
    expect(selectChecks(all, ['cache.*'], []).selected.map((c) => c.id)).toEqual([
      'cache.server.hints',
      'cache.server.ttl-nonneg',
    ]);
    expect(selectChecks(all, [], ['cache.*', 'tools.*']).selected.map((c) => c.id)).toEqual([
      'discover.must-implement',
    ]);
  });
  it('dots are literal, not regex wildcards', () => {
    expect(selectChecks(all, ['cacheXserver.hints'], []).selected).toEqual([]);
  });
  it('reports patterns that match nothing', () => {
    expect(selectChecks(all, ['nope.*'], ['cache.server.hints', 'zzz']).unmatched).toEqual(['nope.*', 'zzz']);
  });
  it('rejects duplicate ids', () => {
    expect(() => assertUniqueIds([check('a'), check('a')])).toThrow(/duplicate check id a/);
  });
});
