import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { DEFECTS, formatDefectList, NO_DEFECTS } from './defects/index.js';
import { effectFile, keepNotesFile } from './defects/effect-files.js';
import { handleMessage } from './handler.js';
import { rpc, stdioContext } from './test-support.js';
import {
  exchange,
  discover,
  pages,
  callResult,
  SERVER_INFO_KEY,
  answer,
  overHttp,
  withVersion,
  MALFORMED_META,
  names,
  listed,
  listen,
  inScratch,
  toggleBeta,
  SUBSCRIPTION_KEY,
} from './defects/test-support.js';

describe('defect catalogue', () => {
  it('has unique names (the deviation tests are per area module, in defects/<area>.test.ts)', () => {
    expect(new Set(DEFECTS.map((defect) => defect.name)).size).toBe(DEFECTS.length);
  });

  it('names a check for every defect except chaos behaviours and conforming variants', () => {
    for (const defect of DEFECTS) {
      expect(defect.breaks === null, defect.name).toBe(defect.chaos === true || defect.conforming === true);
    }
  });

  it('lists NAME<TAB>CHECK-ID<TAB>description for every defect', () => {
    const lines = formatDefectList().split('\n');
    expect(lines).toHaveLength(DEFECTS.length);
    for (const [index, defect] of DEFECTS.entries()) {
      expect(lines[index]!.split('\t')).toEqual([defect.name, defect.breaks ?? '-', defect.description]);
    }
  });
});

describe('clean behaviour where defects act', () => {
  it('has none of the deviations without defects', () => {
    const ctx = stdioContext();
    const result = discover(ctx).result;
    expect(result).toMatchObject({
      resultType: 'complete',
      ttlMs: 60000,
      instructions: expect.any(String),
      capabilities: { tools: { listChanged: true } },
    });
    expect(result.capabilities.extensions).toBeUndefined();
    expect(Object.keys(result._meta)).toEqual([SERVER_INFO_KEY]);
    const all = pages(ctx, 5);
    expect(all).toHaveLength(3);
    expect(all.every((page) => page.jsonrpc === '2.0' && page.id.startsWith('l'))).toBe(true);
    expect(exchange(ctx, rpc(1, 'tools/list'))).toHaveLength(1);
    for (const name of ['format_label', 'lookup_code', 'text_stats'])
      expect(callResult(ctx, name, {}).error.code).toBe(-32602);
  });

  it('writes no file: search_docs, create_note and delete_note keep to memory, and a missing note is a tool error', () =>
    inScratch((dir) => {
      const ctx = stdioContext();
      keepNotesFile(NO_DEFECTS);
      callResult(ctx, 'search_docs', { query: 'auth' });
      callResult(ctx, 'create_note', { title: 'groceries' });
      expect(callResult(ctx, 'delete_note', { id: 'note-1' }).result.isError).toBeUndefined();
      expect(callResult(ctx, 'delete_note', { id: 'note-1' }).result.isError).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
      expect(existsSync(effectFile('notes'))).toBe(false);
    }));

  it('keeps the tool order and set across walks, connections and bad cursors', () => {
    const ctx = stdioContext();
    const first = pages(ctx).map(names);
    expect(pages(ctx).map(names)).toEqual(first);
    expect(pages({ ...ctx, connection: '54321' }).map(names)).toEqual(first);
    expect(first.flat()).toHaveLength(11);
    expect(first.flat().some((name) => name.startsWith('conn_'))).toBe(false);
    expect(answer(ctx, rpc(1, 'tools/list', { cursor: '!!not-a-cursor!!' })).response.error.code).toBe(-32602);
  });

  it('acknowledges a subscription, tells it of tool-set changes, and stops after notifications/cancelled', () => {
    const ctx = stdioContext();
    const subscriber = listen(ctx, 'listen-1', { toolsListChanged: true });
    const bystander = listen(ctx, 8, { promptsListChanged: true, resourceSubscriptions: ['file:///x'] });
    expect(subscriber.ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_KEY]: 'listen-1' }, notifications: { toolsListChanged: true } },
    });
    expect(bystander.ack!.params.notifications).toEqual({});
    expect(toggleBeta(ctx).result.content[0].text).toBe('beta tools are now on');
    expect(listed(ctx).map((tool) => tool.name)).toContain('beta_forecast');
    expect(subscriber.stream).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_KEY]: 'listen-1' } },
      },
    ]);
    expect(bystander.stream).toEqual([]);
    handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } }, ctx);
    toggleBeta(ctx);
    expect(listed(ctx).map((tool) => tool.name)).not.toContain('beta_forecast');
    expect(subscriber.stream).toHaveLength(1);
  });

  it('rejects a subscriptions/listen without a notifications object, and beta_forecast while it is not listed', () => {
    const ctx = stdioContext();
    expect(answer(ctx, rpc(1, 'subscriptions/listen')).response.error.code).toBe(-32602);
    expect(
      answer(ctx, rpc(2, 'subscriptions/listen', { notifications: { toolsListChanged: 'yes' } })).response.error.code,
    ).toBe(-32602);
    expect(answer(ctx, rpc(3, 'tools/call', { name: 'beta_forecast', arguments: {} })).response.error.code).toBe(
      -32602,
    );
  });

  it.each(MALFORMED_META)('rejects %s with -32602 and 400', (_label, message) => {
    expect(answer(stdioContext(), message)).toMatchObject({
      status: 400,
      response: { id: message.id, error: { code: -32602 } },
    });
  });

  it('rejects unsupported versions and header problems with 400, unknown methods with 404', () => {
    const ctx = stdioContext();
    const unsupported = overHttp(ctx, withVersion(1, 'tools/list', '1900-01-01'), {
      'mcp-protocol-version': '1900-01-01',
    });
    expect(unsupported).toMatchObject({ status: 400, response: { error: { code: -32022 } } });
    for (const change of [
      { 'mcp-protocol-version': undefined },
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-method': undefined },
      { 'mcp-method': 'server/discover' },
    ]) {
      expect(overHttp(ctx, rpc(2, 'tools/list'), change), JSON.stringify(change)).toMatchObject({
        status: 400,
        response: { error: { code: -32020 } },
      });
    }
    expect(overHttp(ctx, rpc(3, 'tools/bogus'))).toMatchObject({ status: 404, response: { error: { code: -32601 } } });
  });
});

describe('command line parsing', () => {
  it('collects repeated defects', () => {
    expect(parseCliArgs(['--http', '--port', '8123', '--defect', 'no-discover', '--defect=negative-ttl'])).toEqual({
      kind: 'serve',
      transport: 'http',
      port: 8123,
      sse: false,
      protocolVersion: '2026-07-28',
      defects: new Set(['no-discover', 'negative-ttl']),
      latency: {},
    });
  });

  it('takes --protocol-version, which a defect of an initialize revision needs (that revision or a newer initialize one)', () => {
    expect(
      parseCliArgs(['--protocol-version', '2025-11-25', '--defect', 'legacy-sampling-unnegotiated']),
    ).toMatchObject({
      kind: 'serve',
      transport: 'stdio',
      protocolVersion: '2025-11-25',
      defects: new Set(['legacy-sampling-unnegotiated']),
    });
    expect(parseCliArgs(['--http', '--protocol-version=2025-11-25', '--defect', 'batch-rejected'])).toMatchObject({
      kind: 'serve',
      protocolVersion: '2025-11-25',
    });
    expect(parseCliArgs(['--defect', 'legacy-sampling-unnegotiated'])).toEqual({
      kind: 'error',
      message:
        'defect "legacy-sampling-unnegotiated" breaks a rule of MCP 2025-11-25: it needs --protocol-version ' +
        '2025-11-25 (or a newer initialize revision)',
    });
    expect(parseCliArgs(['--protocol-version', '2025-06-18', '--defect', 'legacy-sampling-unnegotiated']).kind).toBe(
      'error',
    );
    expect(parseCliArgs(['--protocol-version', '2025-01-01'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05'),
    });
    expect(parseCliArgs(['--http', '--protocol-version', '2024-11-05'])).toMatchObject({
      kind: 'serve',
      transport: 'http',
      protocolVersion: '2024-11-05',
    });
    expect(parseCliArgs(['--http', '--sse', '--protocol-version', '2024-11-05'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('--sse is for Streamable HTTP'),
    });
  });

  it('takes the self-test flags', () => {
    expect(parseCliArgs(['--http', '--log-arrivals', '/tmp/a.log', '--rate-limit-once=3'])).toMatchObject({
      kind: 'serve',
      arrivalLog: '/tmp/a.log',
      rateLimitOnce: 3,
    });
  });

  it('takes the benchmark latency, and leaves 0 out', () => {
    expect(parseCliArgs(['--tool-latency-ms', '25'])).toMatchObject({
      kind: 'serve',
      transport: 'stdio',
      latency: { toolLatencyMs: 25 },
    });
    expect(parseCliArgs(['--error-latency-ms', '500', '--tool-latency-ms', '5'])).toMatchObject({
      latency: { toolLatencyMs: 5, errorLatencyMs: 500 },
    });
    expect(parseCliArgs(['--tool-latency-ms=0'])).toMatchObject({ latency: {} });
  });

  it.each([
    [['--rate-limit-once', '2']],
    [['--http', '--rate-limit-once', '1.5']],
    [['--log-arrivals']],
    [['--defect', 'no-such-defect']],
    [['--defect']],
    [['--http', '--defect', 'stdout-noise']],
    [['--sse']],
    [['--http', '--port', 'abc']],
    [['--verbose']],
    [['--tool-latency-ms', '-1']],
    [['--tool-latency-ms', '10001']],
    [['--tool-latency-ms']],
    [['--error-latency-ms', '1e3']],
  ])('rejects %j', (argv) => {
    expect(parseCliArgs(argv).kind).toBe('error');
  });
});
