import { describe, expect, it } from 'vitest';
import { agreedClientWire } from './audit/revision.js';
import type { SeenMessage } from '../model/client-observation.js';
import { InitializeScriptedServer, InitializeSession } from './initialize-scripted-server.js';
import { SCENARIOS } from './scenarios.js';

const server = () =>
  new InitializeScriptedServer({
    scenarios: SCENARIOS,
    canaryOrigin: 'http://127.0.0.1:9',
    timeOrigin: Date.now(),
    version: 'test',
  });
const initialize = (protocolVersion: unknown, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 't', version: '1' } },
});
const resultOf = (body: unknown) => (body as { result: Record<string, unknown> }).result;

describe('the scripted server of the initialize wire', () => {
  it('answers the offered revision when it speaks it, else its newest (2025-11-25)', async () => {
    for (const [offered, agreed] of [
      ['2025-06-18', '2025-06-18'],
      ['2024-11-05', '2024-11-05'],
      ['2099-01-01', '2025-11-25'],
      ['2026-07-28', '2025-11-25'],
      [42, '2025-11-25'],
    ] as const) {
      const session = new InitializeSession('s');
      const answer = await server().handle(session, initialize(offered), () => {});
      expect(resultOf(answer.body).protocolVersion, String(offered)).toBe(agreed);
      expect(session.revision).toBe(agreed);
    }
  });

  it('shapes the tools for the revision: no outputSchema tool before 2025-06-18, no annotations before 2025-03-26, nothing of 2026-07-28 alone', () => {
    const names = (rev: Parameters<InitializeScriptedServer['tools']>[0]) =>
      server()
        .tools(rev)
        .map((t) => t.name);
    expect(names('2025-11-25')).toEqual([
      'echo',
      'sse_echo',
      'ask_client',
      'structured_mismatch',
      'page_two',
      'page_three',
    ]);
    expect(names('2025-03-26')).toEqual(['echo', 'sse_echo', 'ask_client', 'page_two', 'page_three']);
    expect(
      server()
        .tools('2025-03-26')
        .every((t) => 'annotations' in t && !('outputSchema' in t)),
    ).toBe(true);
    expect(
      server()
        .tools('2024-11-05')
        .some((t) => 'annotations' in t),
    ).toBe(false);
  });

  it('asks mid-call only for what initialize declared (elicitation from 2025-06-18)', async () => {
    const scripted = server();
    const asked = async (revision: string, capabilities: Record<string, unknown>) => {
      const session = new InitializeSession('s');
      await scripted.handle(session, initialize(revision, capabilities), () => {});
      const sent: Record<string, unknown>[] = [];
      const call = scripted.handle(
        session,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_client', arguments: {} } },
        (m) => {
          sent.push(m);
          if ('id' in m) void scripted.handle(session, { jsonrpc: '2.0', id: m.id, result: {} }, () => {});
        },
      );
      await call;
      return sent.map((m) => m.method);
    };
    expect(await asked('2025-11-25', { elicitation: {}, roots: {} })).toEqual(['elicitation/create', 'roots/list']);
    expect(await asked('2025-03-26', { elicitation: {}, roots: {} })).toEqual(['roots/list']);
    expect(await asked('2025-11-25', {})).toEqual([]);
  });

  it('the audit judges the revision the initialize was answered with, and a client that also spoke 2026-07-28 on that one', () => {
    const seen = (message: unknown, reply?: unknown): SeenMessage => ({
      seq: 1,
      at: '',
      t: 0,
      transport: 'stdio',
      connection: 'c',
      message,
      ...(reply ? { reply: { body: reply } } : {}),
    });
    const answered = seen(initialize('2099-01-01'), {
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-11-25' },
    });
    expect(agreedClientWire([answered])).toMatchObject({
      wire: '2025-11-25',
      initialize: true,
      reason: expect.stringContaining('which the scripted server does not speak'),
    });
    const discover = seen({
      jsonrpc: '2.0',
      id: 2,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect(agreedClientWire([answered, discover]).wire).toBe('2026-07-28');
    expect(agreedClientWire([seen(initialize('2025-06-18'))]).wire).toBe('2026-07-28');
  });
});
