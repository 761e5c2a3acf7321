import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blotWords } from './blot-words.js';

/** The regular expression blotWords stands in for: the oracle. */
function byRegExp(text: string, tokens: readonly string[]): string {
  const present = tokens.filter((t) => t !== '' && text.includes(t));
  if (present.length === 0) return text;
  const escaped = present.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}_])(?:${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'gu'), '…');
}

describe('blotWords', () => {
  it('blots whole words only, the first fitting token winning at each place', () => {
    expect(blotWords('error: file /tmp/x.txt not found (x)', ['/tmp/x.txt', 'x'])).toBe('error: file … not found (…)');
    expect(blotWords('index indexes index_1 ünder', ['index', 'nder'])).toBe('… indexes index_1 ünder');
    expect(blotWords('aaa', ['a'])).toBe('aaa');
    expect(blotWords('a-a a', ['a', 'a-a'])).toBe('…-… …');
    expect(blotWords('a-a a', ['a-a', 'a'])).toBe('… …');
    expect(blotWords('𝒳y 𝒳 y', ['y'])).toBe('𝒳y 𝒳 …');
    expect(blotWords('nothing here', [])).toBe('nothing here');
  });

  it('gives what the regular expression gives, on text and tokens biased toward boundaries and surrogate pairs', () => {
    const alphabet = fc.constantFrom('a', 'b', '_', '1', ' ', '-', '/', 'é', 'ß', '𝒳', '\ud835', '\udcb3', '.', '…');
    const piece = fc.string({ unit: alphabet, maxLength: 4 });
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 40 }), fc.array(piece, { maxLength: 5 }), (text, tokens) => {
        const longestFirst = [...new Set(tokens)].sort((a, b) => b.length - a.length);
        expect(blotWords(text, longestFirst)).toBe(byRegExp(text, longestFirst));
        expect(blotWords(text, tokens)).toBe(byRegExp(text, tokens));
      }),
      { numRuns: 3000, seed: 20261205 },
    );
  });
});
