import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import { REVISIONS } from '../../src/core/revision.js';
import { escapeHidden, excerptAround, hiddenChars } from './hidden-chars.js';
import { hiddenText } from './hidden-text.js';

const codes = (text: string) => hiddenChars(text).map((c) => [c.codePoint, c.position, c.kind]);

describe('hiddenChars', () => {
  it('finds bidi controls, zero-width characters, tag characters and terminal controls, each with its 1-based position', () => {
    expect(codes('a\u202Eb')).toEqual([[0x202e, 2, 'bidi control']]);
    expect(codes('\u061Cx\u200E\u200F\u2066\u2069')).toEqual([
      [0x061c, 1, 'bidi control'],
      [0x200e, 3, 'bidi control'],
      [0x200f, 4, 'bidi control'],
      [0x2066, 5, 'bidi control'],
      [0x2069, 6, 'bidi control'],
    ]);
    expect(codes('get\u200Bweather\u2060\uFEFF')).toEqual([
      [0x200b, 4, 'zero-width character'],
      [0x2060, 12, 'zero-width character'],
      [0xfeff, 13, 'zero-width character'],
    ]);
    // A code point above the BMP counts once, so later positions stay right.
    expect(codes('😀\u{E0069}x\u001B[31m\u009B')).toEqual([
      [0xe0069, 2, 'tag character'],
      [0x1b, 4, 'terminal control'],
      [0x9b, 9, 'terminal control'],
    ]);
  });

  it('names each character and spells tag characters', () => {
    expect(hiddenChars('\u202E\u200D\u{E0041}\u{E007F}\u0007\u009D').map((c) => c.name)).toEqual([
      'RIGHT-TO-LEFT OVERRIDE',
      'ZERO WIDTH JOINER',
      'TAG "A"',
      'CANCEL TAG',
      'BELL',
      'OPERATING SYSTEM COMMAND',
    ]);
  });

  it('leaves ordinary text alone: tab, newline, carriage return, accents, other scripts, emoji', () => {
    expect(hiddenChars('Line one\n\tline two\r\nnaïve café — 東京 Привет مرحبا 👍🏽')).toEqual([]);
  });

  it('leaves joiners that do visible work: emoji sequences, Persian and Indic shaping, subdivision flags', () => {
    expect(hiddenChars('👩‍💻 👨🏽‍🚀 ❤️‍🔥')).toEqual([]);
    expect(hiddenChars('می\u200Cخواهم')).toEqual([]);
    expect(hiddenChars('क्\u200Dष')).toEqual([]);
    expect(hiddenChars('🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}')).toEqual([]);
  });

  it('still flags those characters where they do no visible work', () => {
    expect(codes('read\u200Dme')).toEqual([[0x200d, 5, 'zero-width character']]);
    expect(codes('x\u200C')).toEqual([[0x200c, 2, 'zero-width character']]);
    // Tag characters outside a flag (no black flag before them, or no CANCEL TAG after).
    expect(codes('🏴\u{E0067}\u{E0062}')).toEqual([
      [0xe0067, 2, 'tag character'],
      [0xe0062, 3, 'tag character'],
    ]);
  });

  it('shows text escaped, never raw', () => {
    expect(escapeHidden('a\u202Eb\u001B[0m\u{E0041}\n')).toBe('a\\u{202E}b\\u{1B}[0m\\u{E0041}\\u{A}');
    expect(excerptAround('x'.repeat(50) + '\u200B' + 'y'.repeat(50), 51, 3)).toBe('…xxx\\u{200B}yyy…');
  });
});

/** Just enough context for a check that reads the tool list. */
function listing(...tools: Record<string, unknown>[]): CheckContext {
  const page = { result: { tools }, exchange: { seq: 1 } };
  return { tools: async () => ({ pages: [page], tools, stop: { kind: 'complete' } }) } as unknown as CheckContext;
}

describe('tools.tool.hidden-text', () => {
  it('passes plain tools, and says how many it checked', async () => {
    const outcomes = await hiddenText.run(
      listing({
        name: 'get_weather',
        title: 'Weather',
        description: 'Forecast — naïve 👍',
        inputSchema: { type: 'object' },
      }),
    );
    expect(outcomes.map((o) => [o.status, o.message])).toEqual([
      ['pass', expect.stringMatching(/^1 tool definitions/)],
    ]);
  });

  it('names the tool, the field, the code point and its position, escaped, and only warns on every revision', async () => {
    const tool = {
      name: 'get\u200Bweather',
      description: 'Forecast.\u{E0069}\u{E0067}\u{E006E}',
      annotations: { title: 'W\u001B[31m' },
      inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City \u202Ename' } } },
      outputSchema: { type: 'object', title: 'Out\u009Bput' },
    };
    const [outcome, ...rest] = await hiddenText.run(listing(tool, { name: 'clean', inputSchema: { type: 'object' } }));
    expect(rest).toEqual([]);
    expect(outcome!.tool).toBe('get\u200Bweather');
    const message = outcome!.message;
    expect(message).toContain('tool "get\\u{200B}weather"');
    expect(message).toContain('name has U+200B ZERO WIDTH SPACE (zero-width character) at character 4');
    expect(message).toContain('description has U+E0069 TAG "i" (tag character) at character 10');
    expect(message).toContain('its tag characters spell "ign"');
    expect(message).toContain('annotations.title has U+001B ESCAPE (terminal control) at character 2');
    expect(message).toContain(
      'inputSchema.properties.city.description has U+202E RIGHT-TO-LEFT OVERRIDE (bidi control) at character 6',
    );
    expect(message).toContain('outputSchema.title has U+009B CONTROL SEQUENCE INTRODUCER');
    // eslint-disable-next-line no-control-regex -- the message shows hidden characters escaped, never raw
    expect(message).not.toMatch(/[\u200B\u202E\u001B\u009B]|[\u{E0000}-\u{E007F}]/u);
    for (const wire of REVISIONS) expect(toResult(hiddenText, outcome!, 0, wire).status).toBe('warn');
  });

  it('bounds what it reads in a hostile schema', async () => {
    let deep: Record<string, unknown> = { description: 'bottom\u200B' };
    for (let i = 0; i < 1000; i += 1) deep = { properties: { a: deep } };
    const outcomes = await hiddenText.run(listing({ name: 'deep', inputSchema: deep }));
    expect(outcomes.map((o) => o.status)).toEqual(['pass']);
  });
});
