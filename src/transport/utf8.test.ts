import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from './utf8.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('decodeUtf8', () => {
  it('accepts valid UTF-8, including a genuine U+FFFD, CJK, an emoji and a BOM', () => {
    for (const text of ['{"a":"plain"}', '{"a":"\uFFFD"}', '{"a":"天気 🌦"}', '\uFEFF{"a":1}']) {
      expect(decodeUtf8(Buffer.from(text, 'utf8'))).toEqual({ text, valid: true });
    }
  });

  it.each([
    ['a Latin-1 byte', [0xe9]],
    ['a lone continuation byte', [0x80]],
    ['a truncated sequence', [0xe5, 0xa4]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a byte that never occurs', [0xff]],
  ])('rejects %s, decoding it as U+FFFD', (_what, bad) => {
    const decoded = decodeUtf8(bytes('{"a":"caf', bad, '"}'));
    expect(decoded.valid).toBe(false);
    expect(decoded.text).toMatch(/^\{"a":"caf\uFFFD+"\}$/);
  });

  it('reads a view into a larger buffer by its own bounds', () => {
    const all = bytes('xx', [0xe9], '{"ok":true}');
    expect(decodeUtf8(all.subarray(3))).toEqual({ text: '{"ok":true}', valid: true });
    expect(decodeUtf8(all.subarray(0, 3)).valid).toBe(false);
  });
});
