import { describe, expect, it } from 'vitest';
import { capLength, escapeForTerminal, stripXmlForbidden, terminalInline, terminalLines } from './text-safety.js';

describe('escapeForTerminal', () => {
  it('renders C0, DEL and C1 controls visibly', () => {
    expect(escapeForTerminal('a\u001b[31mb\u0007c\u0000d\u007fe\u009bf\tg\rh')).toBe(
      'a\\x1b[31mb\\x07c\\x00d\\x7fe\\x9bf\\x09g\\x0dh',
    );
  });

  it('renders bidi overrides, line separators and lone surrogates visibly', () => {
    expect(escapeForTerminal('x\u202ey\u2066z\u2028w\ud800v\udc00')).toBe('x\\u202ey\\u2066z\\u2028w\\ud800v\\udc00');
    expect(escapeForTerminal('a\u200bb\ufeffc\ufffed\uffff')).toBe('a\\u200bb\\ufeffc\\ufffed\\uffff');
    expect(escapeForTerminal('👨\u200d👩')).toBe('👨\u200d👩');
  });

  it('renders the word joiner, invisible operators and Unicode tag characters visibly', () => {
    expect(escapeForTerminal('a\u2060b\u2062c')).toBe('a\\u2060b\\u2062c');
    expect(escapeForTerminal('ok\u{e0049}\u{e0047}')).toBe('ok\\u{e0049}\\u{e0047}');
  });

  it('keeps ordinary text, markup and emoji', () => {
    expect(escapeForTerminal('héllo <&"\'> 🎉 日本')).toBe('héllo <&"\'> 🎉 日本');
  });
});

describe('line capping', () => {
  it('caps by code points with a note', () => {
    expect(capLength('🎉🎉🎉🎉', 2)).toBe('🎉🎉…[+2 chars]');
    expect(terminalInline('a\nb')).toBe('a\\x0ab');
  });

  it('splits on newlines, caps each line and the number of lines', () => {
    const text = ['x'.repeat(50), 'y', 'z', 'w'].join('\r\n');
    expect(terminalLines(text, { maxLineChars: 10, maxLines: 2 })).toEqual([
      `${'x'.repeat(10)}…[+40 chars]`,
      'y',
      '…[+2 more lines]',
    ]);
  });
});

describe('stripXmlForbidden', () => {
  it('removes what XML 1.0 forbids and keeps tab, LF, CR, C1 and astral characters', () => {
    expect(stripXmlForbidden('a\u0000b\u0008c\u000bd\u001fe\ufffef\uffffg\ud800h\udc00i')).toBe('abcdefghi');
    expect(stripXmlForbidden('t\tn\nr\r\u0085🎉')).toBe('t\tn\nr\r\u0085🎉');
  });
});
