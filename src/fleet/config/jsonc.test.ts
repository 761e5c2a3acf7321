import { describe, expect, it } from 'vitest';
import { JsoncError, parseJsonc } from './jsonc.js';

describe('parseJsonc', () => {
  it('reads plain JSON as JSON.parse does', () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}, "c": []}';
    expect(parseJsonc(text)).toEqual(JSON.parse(text));
  });

  it('skips line and block comments and trailing commas, and a byte order mark', () => {
    const text = '\uFEFF// head\n{ /* a */ "a": [1, 2,], // tail\n "b": "// kept /* kept */", }\n/* end */';
    expect(parseJsonc(text)).toEqual({ a: [1, 2], b: '// kept /* kept */' });
  });

  it('keeps "__proto__" as an own key, as JSON.parse does', () => {
    const value = parseJsonc('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['{"a": 1 "b": 2}', 'expected "," or "}", found "\\"" at line 1 column 9'],
    ['{\n  "a": ,\n}', 'unexpected "," at line 2 column 8'],
    ['{a: 1}', 'expected a property name in double quotes, found "a" at line 1 column 2'],
    ['{"a" 1}', 'expected ":" after property name, found "1" at line 1 column 6'],
    ['{"a": "open\n"}', 'unterminated string at line 1 column 7'],
    ['{"a": "\\q"}', 'invalid string at line 1 column 7'],
    ['{"a": 1} x', 'unexpected "x" after the value at line 1 column 10'],
    ['{"a": [1, 2}', 'expected "," or "]", found "}" at line 1 column 12'],
    ['/* open', 'unterminated comment at line 1 column 1'],
    ['', 'unexpected end of file at line 1 column 1'],
    ['[01]', 'expected "," or "]", found "1" at line 1 column 3'],
    ["{'a': 1}", 'expected a property name in double quotes, found "\'" at line 1 column 2'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseJsonc(text)).toThrow(JsoncError);
    expect(() => parseJsonc(text)).toThrow(message);
  });
});
