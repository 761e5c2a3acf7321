import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue, isPlainHeaderSafe } from './header-encoding.js';

/** Independent restatement of the reference encoder in the requirements catalog (§3.5). */
function referenceEncode(value: string | number | boolean): string {
  const s = typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  const safe =
    [...s].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e) &&
    !(s.startsWith(' ') || s.startsWith('\t') || s.endsWith(' ') || s.endsWith('\t')) &&
    !(s.startsWith('=?base64?') && s.endsWith('?='));
  return safe ? s : `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

describe('encodeHeaderValue', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('matches the spec table: %j', (input, expected) => {
    expect(encodeHeaderValue(input)).toBe(expected);
  });

  it.each([
    ['us west 1', 'us west 1'],
    ['', ''],
    ['line1\r\nline2', '=?base64?bGluZTENCmxpbmUy?='],
    ['\tindented', '=?base64?CWluZGVudGVk?='],
    ['日本語', '=?base64?5pel5pys6Kqe?='],
  ])('matches the SEP-2243 examples: %j', (input, expected) => {
    expect(encodeHeaderValue(input)).toBe(expected);
  });

  it('converts integers and booleans', () => {
    expect(encodeHeaderValue(42)).toBe('42');
    expect(encodeHeaderValue(-7)).toBe('-7');
    expect(encodeHeaderValue(0)).toBe('0');
    expect(encodeHeaderValue(true)).toBe('true');
    expect(encodeHeaderValue(false)).toBe('false');
  });

  it('escapes anything shaped like the sentinel, but not near misses', () => {
    expect(encodeHeaderValue('=?base64??=')).toMatch(/^=\?base64\?.+\?=$/);
    expect(encodeHeaderValue('=?base64?=')).not.toBe('=?base64?=');
    expect(encodeHeaderValue('=?BASE64?abc?=')).toBe('=?BASE64?abc?=');
    expect(encodeHeaderValue('=?base64?abc')).toBe('=?base64?abc');
  });

  it('encodes interior tabs, control characters and DEL', () => {
    expect(isPlainHeaderSafe('a\tb')).toBe(false);
    expect(isPlainHeaderSafe('a\u0000b')).toBe(false);
    expect(isPlainHeaderSafe('a\u007fb')).toBe(false);
    expect(isPlainHeaderSafe('a b~!')).toBe(true);
  });

  it('agrees with the reference encoder on arbitrary strings', () => {
    const interesting = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom(' ', '\t', 'a', '=', '?', 'b', '\n', 'é') }),
      fc.string().map((s) => `=?base64?${s}?=`),
    );
    fc.assert(fc.property(interesting, (s) => encodeHeaderValue(s) === referenceEncode(s)));
  });

  it('round-trips every string through decodeHeaderValue', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string().map((s) => `=?base64?${s}?=`),
        ),
        (s) => {
          const encoded = encodeHeaderValue(s);
          expect(isPlainHeaderSafe(encoded) || encoded.startsWith('=?base64?')).toBe(true);
          expect(/^[\x20-\x7e]*$/.test(encoded)).toBe(true);
          expect(decodeHeaderValue(encoded)).toBe(s);
        },
      ),
    );
  });
});

describe('decodeHeaderValue', () => {
  it('leaves values without the exact lowercase sentinel alone', () => {
    expect(decodeHeaderValue('us-west1')).toBe('us-west1');
    expect(decodeHeaderValue('=?BASE64?SGk=?=')).toBe('=?BASE64?SGk=?=');
    expect(decodeHeaderValue('=?base64?SGk=')).toBe('=?base64?SGk=');
  });

  it('decodes sentinel values', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('=?base64??=')).toBe('');
  });

  it('throws on invalid Base64 and on invalid UTF-8', () => {
    expect(() => decodeHeaderValue('=?base64?SGk?=')).toThrow();
    expect(() => decodeHeaderValue('=?base64?S*k=?=')).toThrow();
    expect(() => decodeHeaderValue('=?base64?_-8=?=')).toThrow();
    expect(() => decodeHeaderValue('=?base64?/w==?=')).toThrow();
  });
});
