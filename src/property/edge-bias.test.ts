import { describe, expect, it } from 'vitest';
import { biasTowardEdges, type Pick } from './edge-bias.js';
import { shrinkValue } from './shrink-json.js';
import type { ValueHints } from './value-hints.js';

/** A seeded linear congruential source, enough to draw many picks reproducibly. */
function picker(seed: number): Pick {
  let state = seed >>> 0;
  return (count) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 16) % count;
  };
}

const draws = (
  times: number,
  hints: ValueHints,
  value: Record<string, unknown>,
  isValid: (v: unknown) => boolean = () => true,
) => {
  const pick = picker(42);
  return Array.from({ length: times }, () => biasTowardEdges(value, () => hints, isValid, pick));
};

describe('edge bias', () => {
  it('turns drawn floats into small integers, 0 and ±1 often, and keeps about half of them as drawn', () => {
    const values = draws(1_000, {}, { a: 254.1478811763227 }).map((v) => v.a as number);
    const kept = values.filter((v) => v === 254.1478811763227).length;
    expect(kept).toBeGreaterThan(400);
    expect(kept).toBeLessThan(600);
    const smallIntegers = values.filter((v) => Number.isInteger(v) && Math.abs(v) <= 10);
    expect(smallIntegers.length).toBeGreaterThan(300);
    for (const edge of [0, 1, -1, 3, -3, 10, -10]) expect(smallIntegers).toContain(edge);
  });

  it('reaches the bounds of a number and the length boundaries of a string', () => {
    const numbers = draws(400, { lowerBound: 5, upperBound: 50 }, { a: 17.5 }).map((v) => v.a);
    for (const bound of [5, 6, 50, 49]) expect(numbers).toContain(bound);
    const strings = draws(400, { minLength: 2, maxLength: 12 }, { s: 'hello' }).map((v) => v.s as string);
    for (const edge of ['', 'h', 'he', 'hellozzzzzzz']) expect(strings).toContain(edge);
    expect(new Set(strings.filter((text) => /[^a-z]/.test(text))).size).toBeGreaterThanOrEqual(3);
    const arrays = draws(400, { minItems: 1, maxItems: 3 }, { xs: [1, 2] }).map((v) => JSON.stringify(v.xs));
    for (const edge of ['[]', '[1]', '[1,2,1]', '[1,2]']) expect(arrays).toContain(edge);
  });

  it('keeps only the biased properties the validator accepts, and never returns an invalid object', () => {
    const isValid = (v: unknown) =>
      typeof (v as { s: unknown }).s === 'string' &&
      (v as { s: string }).s.length >= 3 &&
      ((v as { n: number }).n ?? 0) >= 0;
    for (const value of draws(300, {}, { s: 'abcdef', n: 7.25 }, isValid)) expect(isValid(value)).toBe(true);
    const biasedNumbers = draws(300, {}, { s: 'abcdef', n: 7.25 }, isValid).filter((v) => v.n !== 7.25);
    expect(biasedNumbers.length).toBeGreaterThan(50);
  });

  it('draws the same values from the same picks', () => {
    expect(draws(50, {}, { a: 1.5, s: 'x', xs: [1] })).toEqual(draws(50, {}, { a: 1.5, s: 'x', xs: [1] }));
  });
});

describe('number shrinking', () => {
  it('tries the target, then the integer part, then fewer digits: never by halving', () => {
    expect([...shrinkValue(121.68)]).toEqual([0, 121, 100, 120, 122, 121.7]);
    expect([...shrinkValue(5e-324)]).toEqual([0, 0, 1]);
    expect([...shrinkValue(-0.375)]).toEqual([0, 0, -1, -0.4, -0.38]);
  });

  it('tries small integers next to the target, the positive counterpart, then leading digits', () => {
    expect([...shrinkValue(1789)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000, 1700, 1780, 1788]);
    expect([...shrinkValue(-10)]).toEqual([0, 10, -1, -2, -3, -4, -5, -6, -7, -8, -9, -9]);
    expect([...shrinkValue(12, { lowerBound: 10 })]).toEqual([10, 11, 11]);
  });

  it('ends: every candidate is an integer nearer 0 or has fewer significant digits than the value it came from', () => {
    const digits = (n: number) => n.toExponential().split('e')[0]!.replace(/[-.]/g, '').length;
    const simpler = (c: number, v: number) =>
      Number.isInteger(v)
        ? (Number.isInteger(c) && Math.abs(c) < Math.abs(v)) || (c === -v && v < 0)
        : Number.isInteger(c) || digits(c) < digits(v);
    const pick = picker(7);
    const starts = [121.68, -987654.321, 5e-324, 1e21, 2 ** 60, -3, 0.1 + 0.2];
    for (let i = 0; i < 500; i += 1) starts.push((pick(2_000_001) - 1_000_000) / [1, 7, 1000][pick(3)]!);
    for (const value of starts)
      for (const candidate of shrinkValue(value))
        expect(simpler(candidate as number, value), `${candidate} from ${value}`).toBe(true);
  });
});
