import { describe, expect, it } from 'vitest';
import { backtrackingRisk, guardedRegExp, isPatternSafe } from './regexp-guard.js';

describe('backtrackingRisk', () => {
  it.each([
    '^(a+)+$',
    '(a*)*',
    '^(a|a)*$',
    '(.*a){12}',
    '^(\\w+\\s?)+$',
    '^([a-z]+)*@',
    '(a|ab)+c',
    '(\\d|1)*x',
    '((ab)*c)+',
    '^(?:a{1,3})+$',
    '^(x|[a-z])+$',
  ])('flags %s', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeDefined();
  });

  it.each([
    '^[a-z]{3}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^(a|b)*$',
    '^[A-Z]{2}(-[0-9]+)?$',
    '^(foo|bar)+$',
    '^\\p{L}+$',
    '^[\\]\\[]+$',
    '^(?<year>\\d{4})$',
    '^(?=a)a+$',
    '\\u{1F600}+',
    'a{2}b*',
    '',
  ])('accepts %s', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeUndefined();
    expect(isPatternSafe(pattern)).toBe(true);
  });

  it('treats a syntax error as unsafe rather than throwing', () => {
    expect(isPatternSafe('(')).toBe(false);
  });
});

describe('guardedRegExp (the ajv code.regExp engine)', () => {
  it('returns a working RegExp for a safe pattern', () => {
    expect(guardedRegExp('^a+$', 'u').test('aaa')).toBe(true);
  });

  it('throws a message naming the risky pattern, quickly', () => {
    const started = performance.now();
    expect(() => guardedRegExp('^(a+)+$', 'u')).toThrow(/pattern \^\(a\+\)\+\$ may backtrack catastrophically/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
