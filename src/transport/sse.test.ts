import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.js';
import type { SseEvent } from './sse.js';

function parseAll(chunks: (string | Uint8Array)[]): SseEvent[] {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return [...events, ...parser.end()];
}

function splitEverywhere(text: string): string[] {
  return [...text];
}

describe('SseParser', () => {
  it('dispatches an event on a blank line with the default event type', () => {
    expect(parseAll(['data: {"a":1}\n\n'])).toEqual([{ event: 'message', data: '{"a":1}' }]);
  });

  it('handles LF, CRLF and CR line endings alike', () => {
    const expected = [
      { event: 'message', data: 'one' },
      { event: 'message', data: 'two' },
    ];
    expect(parseAll(['data: one\n\ndata: two\n\n'])).toEqual(expected);
    expect(parseAll(['data: one\r\n\r\ndata: two\r\n\r\n'])).toEqual(expected);
    expect(parseAll(['data: one\r\rdata: two\r\r'])).toEqual(expected);
  });

  it('treats a CR at a chunk end followed by LF in the next chunk as one line break', () => {
    expect(parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('parses correctly when every character arrives in its own chunk', () => {
    const stream = ': keep-alive\r\nevent: update\r\ndata: x\r\ndata:  y\r\nid: 7\r\n\r\ndata: z\r\n\r\n';
    expect(parseAll(splitEverywhere(stream))).toEqual([
      { event: 'update', data: 'x\n y', id: '7' },
      { event: 'message', data: 'z', id: '7' },
    ]);
  });

  it('joins multi-line data with LF and strips only one space after the colon', () => {
    expect(parseAll(['data:first\ndata:  second\ndata\n\n'])).toEqual([{ event: 'message', data: 'first\n second\n' }]);
  });

  it('ignores comments, retry and unknown fields', () => {
    expect(parseAll([':\r\n: ping\r\nretry: 1000\r\nfoo: bar\r\ndata: ok\r\n\r\n'])).toEqual([
      { event: 'message', data: 'ok' },
    ]);
  });

  it('does not dispatch events without data', () => {
    expect(parseAll(['event: ping\n\nid: 3\n\n:\n\n'])).toEqual([]);
  });

  it('discards an unterminated event at the end of the stream', () => {
    expect(parseAll(['data: complete\n\ndata: partial\n'])).toEqual([{ event: 'message', data: 'complete' }]);
  });

  it('strips a BOM only at the very start of the stream', () => {
    expect(parseAll(['\uFEFFdata: a\n\n'])).toEqual([{ event: 'message', data: 'a' }]);
    const bytes = new TextEncoder().encode('\uFEFFdata: b\n\n');
    expect(parseAll([bytes])).toEqual([{ event: 'message', data: 'b' }]);
    expect(parseAll(['data: a\n\n', '\uFEFFdata: c\n\n'])).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('decodes UTF-8 split across byte chunks', () => {
    const bytes = new TextEncoder().encode('data: 世界\n\n');
    const chunks = [...bytes].map((b) => Uint8Array.of(b));
    expect(parseAll(chunks)).toEqual([{ event: 'message', data: '世界' }]);
  });

  it('keeps the last event id across events and resets it on an empty id', () => {
    expect(parseAll(['id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n'])).toEqual([
      { event: 'message', data: 'a', id: '1' },
      { event: 'message', data: 'b', id: '1' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('resets the event type after each dispatch', () => {
    expect(parseAll(['event: special\ndata: 1\n\ndata: 2\n\n']).map((e) => e.event)).toEqual(['special', 'message']);
  });

  it('marks an event whose data bytes were not valid UTF-8, and only that event, however the bytes are chunked', () => {
    const bytes = Buffer.concat([
      Buffer.from('data: {"a":"ok"}\r\n\r\ndata: {"b":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\r\n\r\n: caf'),
      Buffer.from([0xe9]),
      Buffer.from(' in a comment\ndata: {"c":"\u4e16\ufffd"}\n\n'),
    ]);
    const expected = [
      { event: 'message', data: '{"a":"ok"}' },
      { event: 'message', data: '{"b":"caf\uFFFD"}', invalidUtf8: true },
      { event: 'message', data: '{"c":"\u4e16\ufffd"}' },
    ];
    expect(parseAll([bytes])).toEqual(expected);
    expect(parseAll([...bytes].map((b) => Uint8Array.of(b)))).toEqual(expected);
    expect(parseAll([bytes.subarray(0, 20), bytes.subarray(20, 37), bytes.subarray(37)])).toEqual(expected);
  });

  it('counts bytes held for an unfinished line in pendingLength', () => {
    const parser = new SseParser();
    parser.push(Buffer.from('data: 12345'));
    expect(parser.pendingLength).toBe(11);
    expect(parser.push(Buffer.from('\n\n'))).toEqual([{ event: 'message', data: '12345' }]);
    expect(parser.pendingLength).toBe(0);
  });
});
