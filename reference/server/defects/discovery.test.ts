import { expect } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { initializeRequest, legacyRpc, rpc } from '../test-support.js';
import { DISCOVERY_DEFECTS } from './discovery.js';
import { showsEachDeviation, exchange, discover, pages, SERVER_INFO_KEY } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'no-discover': (ctx) => {
    expect(discover(ctx).error.code).toBe(-32601);
    expect(exchange(ctx, rpc(1, 'initialize')).at(-1)!.error.code).toBe(-32601);
    expect(pages(ctx)[0]!.result.tools).toHaveLength(4);
  },
  'supported-versions-omits-served': (ctx) => expect(discover(ctx).result.supportedVersions).toEqual(['2025-11-25']),
  'no-server-info': (ctx) => {
    expect(discover(ctx).result).not.toHaveProperty('_meta');
    expect(pages(ctx)[0]!.result._meta[SERVER_INFO_KEY]).toBeDefined();
  },
  'no-tools-capability': (ctx) => {
    expect(discover(ctx).result.capabilities).toEqual({});
    expect(pages(ctx)[0]!.result.tools).toHaveLength(4);
  },
  'list-changed-not-boolean': (ctx) => expect(discover(ctx).result.capabilities.tools.listChanged).toBe('yes'),
  'legacy-sampling-unnegotiated': (ctx) => {
    exchange(
      ctx,
      legacyRpc(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { roots: {} },
        clientInfo: { name: 't', version: '1' },
      }),
    );
    const asked = handleMessage(legacyRpc(2, 'tools/list'), ctx);
    expect(asked).toMatchObject({ kind: 'ask', request: { id: 'srv-sampling-1', method: 'sampling/createMessage' } });
    const then = (asked as Extract<typeof asked, { kind: 'ask' }>).then();
    expect(then).toMatchObject({ kind: 'send', messages: [{ id: 2, result: { tools: expect.any(Array) } }] });
    expect(exchange(ctx, legacyRpc(3, 'tools/list'))).toHaveLength(1);
  },
  'version-negotiation-echo': (ctx) => {
    const offered = (version: string) => exchange(ctx, initializeRequest(1, version)).at(-1)!.result.protocolVersion;
    expect(offered('2000-01-01')).toBe('2000-01-01');
    expect(offered('2024-11-05')).toBe('2024-11-05');
  },
};

showsEachDeviation(DISCOVERY_DEFECTS, DEVIATIONS);
