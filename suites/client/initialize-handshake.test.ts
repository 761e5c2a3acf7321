import { describe, expect, it } from 'vitest';
import type { ClientObservations, SeenMessage } from '../../src/model/client-observation.js';
import { ClientCheckContext } from '../../src/client-mode/audit/check.js';
import { INITIALIZE_FIRST, INITIALIZED_SENT } from './initialize-handshake.js';

/** One POST of the client over HTTP, naming `session` (if any); an initialize's answer assigns `assigns`. */
function post(seq: number, message: Record<string, unknown>, session?: string, assigns?: string): SeenMessage {
  const reply =
    'id' in message
      ? {
          status: 200,
          body: { jsonrpc: '2.0', id: message.id, result: {} },
          ...(assigns ? { headers: { 'mcp-session-id': assigns } } : {}),
        }
      : { status: 202 };
  return {
    seq,
    at: new Date(Date.UTC(2026, 11, 4) + seq).toISOString(),
    t: seq * 10,
    answeredT: seq * 10 + 5,
    transport: 'http',
    connection: 'http client port 50000',
    message: { jsonrpc: '2.0', ...message },
    http: { method: 'POST', path: '/mcp', headers: session ? { 'mcp-session-id': session } : {} },
    reply,
  };
}

function judged(messages: SeenMessage[]) {
  const observed = { transport: 'http', wire: '2025-11-25', messages } as unknown as ClientObservations;
  const ctx = new ClientCheckContext(observed);
  return { initialized: INITIALIZED_SENT.run(ctx), first: INITIALIZE_FIRST.run(ctx) };
}

const initialize = (id: number) => ({
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});
const initialized = { method: 'notifications/initialized' };

describe('the handshake of a client holding two HTTP sessions at once', () => {
  it('each initialize is judged with the messages of its own session, however they interleave', () => {
    // Both initialize requests go out before either notifications/initialized (two connections opened together).
    const { initialized: verdict, first } = judged([
      post(1, initialize(0), undefined, 'session-a'),
      post(2, initialize(0), undefined, 'session-b'),
      post(3, initialized, 'session-a'),
      post(4, initialized, 'session-b'),
      post(5, { id: 1, method: 'tools/list' }, 'session-a'),
    ]);
    expect(verdict.map((o) => [o.status, o.message])).toEqual([
      ['pass', 'each of 2 successful initialize(s) was followed by notifications/initialized'],
    ]);
    expect(first.map((o) => o.status)).toEqual(['pass']);
  });

  it('a session whose notifications/initialized never came still fails, though the other session sent one later', () => {
    const { initialized: verdict } = judged([
      post(1, initialize(0), undefined, 'session-a'),
      post(2, initialize(0), undefined, 'session-b'),
      post(3, initialized, 'session-b'),
      post(4, { id: 1, method: 'tools/list' }, 'session-a'),
    ]);
    expect(verdict[0]).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /^1 of 2 successful initialize\(s\) got no notifications\/initialized after them: initialize \(id 0\), message #1 /,
      ),
    });
  });
});
