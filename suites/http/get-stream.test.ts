import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import type { CheckContext } from '../../src/runner/context.js';
import { getStream } from './get-stream.js';

const answeredWith = (status: number, contentType?: string): CheckContext => {
  const get: Exchange = {
    seq: 1,
    sentAt: new Date(0).toISOString(),
    durationMs: 1,
    request: { httpMethod: 'GET', path: '/mcp' },
    status,
    ...(contentType ? { responseHeaders: { 'content-type': contentType } } : {}),
    notifications: [],
  };
  return { client: { serverStreamAnswer: () => get } } as unknown as CheckContext;
};
const statusOf = async (ctx: CheckContext) => ((await getStream.run(ctx)) as { status: string }[]).map((o) => o.status);

describe('http.get-stream', () => {
  it('passes an event stream or 405, fails any other answer of the server', async () => {
    expect(await statusOf(answeredWith(200, 'text/event-stream'))).toEqual(['pass']);
    expect(await statusOf(answeredWith(405))).toEqual(['pass']);
    expect(await statusOf(answeredWith(200, 'application/json'))).toEqual(['fail']);
    expect(await statusOf(answeredWith(500))).toEqual(['fail']);
  });

  it.each([429, 502, 503, 504])('skips HTTP %i, which says nothing of the stream', async (status) => {
    expect(await statusOf(answeredWith(status))).toEqual(['skip']);
  });
});
