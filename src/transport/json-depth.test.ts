import { describe, expect, it } from 'vitest';
import { jsonNestedDeeperThan } from './json-depth.js';

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('jsonNestedDeeperThan', () => {
  it('counts objects and arrays, and stops at the limit', () => {
    expect(jsonNestedDeeperThan(nested(10), 10)).toBe(false);
    expect(jsonNestedDeeperThan(nested(11), 10)).toBe(true);
    expect(jsonNestedDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestedDeeperThan('[[],[],[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestedDeeperThan(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestedDeeperThan(JSON.stringify({ s: 'say \\"[[[[\\" \\\\' }), 1)).toBe(false);
    expect(jsonNestedDeeperThan(JSON.stringify({ s: '"', t: [[1]] }), 2)).toBe(true);
  });

  it('scans a 10,000-deep message quickly and without recursion', () => {
    const started = performance.now();
    expect(jsonNestedDeeperThan(nested(10_000), 1000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
