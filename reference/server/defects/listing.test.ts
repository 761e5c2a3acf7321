import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { meta, rpc, stdioContext } from '../test-support.js';
import { LISTING_DEFECTS } from './listing.js';
import { showsEachDeviation, Message, exchange, pages, answer, names, sorted, listed, extra } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'tools-change-after-call': (ctx) => {
    expect(listed(ctx).map((tool) => tool.name)).not.toContain('recent_calls');
    exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(listed(ctx).at(-1)!.name).toBe('recent_calls');
    expect(listed({ ...ctx, connection: 'another' }).map((tool) => tool.name)).not.toContain('recent_calls');
  },
  'tools-not-array': (ctx) => {
    const all = pages(ctx);
    expect(all[1]!.result.tools).toEqual({});
    expect(all).toHaveLength(3);
  },
  'cursor-loop': (ctx) => {
    const all = pages(ctx, 5);
    expect(all).toHaveLength(5);
    expect(all[2]!.result.nextCursor).toBe(all[0]!.result.nextCursor);
    expect(all[3]!.result.tools).toEqual(all[1]!.result.tools);
  },
  'cursor-loop-fresh': (ctx) => {
    const all = pages(ctx, 7);
    expect(all).toHaveLength(7);
    const cursors = all.map((page) => page.result.nextCursor);
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(all[3]!.result.tools).toEqual(all[1]!.result.tools);
    expect(all[5]!.result.tools).toEqual(all[3]!.result.tools);
  },
  'duplicate-tool': (ctx) => {
    const all = pages(ctx);
    const last = all[2]!.result.tools as Message[];
    expect(last.at(-1)).toEqual(all[0]!.result.tools[0]);
  },
  'shuffled-order': (ctx) => {
    const clean = pages(stdioContext()).map(names);
    const first = pages(ctx).map(names);
    const second = pages(ctx).map(names);
    expect(first.map(sorted)).toEqual(clean.map(sorted));
    expect(second.map(sorted)).toEqual(clean.map(sorted));
    expect(first[0]).toEqual([...clean[0]!.slice(1), clean[0]![0]]);
    // Each page is rotated by the running request count, so a page whose length divides it can come out unchanged.
    expect(
      first.filter((page, index) => JSON.stringify(page) !== JSON.stringify(second[index])).length,
    ).toBeGreaterThanOrEqual(2);
  },
  'connection-scoped-tools': (ctx) => {
    const all = pages(ctx);
    expect(all.map((page) => page.result.tools.length)).toEqual([4, 4, 4]);
    expect(all[2]!.result.tools.at(-1)).toMatchObject({
      name: `conn_${process.pid}`,
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: false },
      description: expect.any(String),
    });
    expect(listed(ctx).map((tool) => tool.name)).toEqual(listed(ctx).map((tool) => tool.name));
    expect(extra({ ...ctx, connection: '54321' }).name).toBe('conn_54321');
  },
  'invalid-cursor-ignored': (ctx) => {
    const first = pages(ctx, 1)[0]!;
    const bogus = answer(ctx, rpc(1, 'tools/list', { cursor: '!!not-a-cursor!!' })).response;
    expect(bogus.result).toEqual(first.result);
    expect(answer(ctx, rpc(2, 'tools/list', { cursor: 7 })).response.error.code).toBe(-32602);
  },
  'client-info-unlocks-tool': (ctx) => {
    const asHost = {
      _meta: meta({}, { 'io.modelcontextprotocol/clientInfo': { name: 'claude-ai', version: '1.0.0' } }),
    };
    let cursor: string | undefined;
    const tools: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const page = exchange(ctx, rpc(`p${i}`, 'tools/list', cursor === undefined ? asHost : { ...asHost, cursor })).at(
        -1,
      )!.result;
      tools.push(...page.tools.map((tool: Message) => tool.name));
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
    expect(tools).toContain('host_diagnostics');
    expect(listed(ctx).map((tool) => tool.name)).not.toContain('host_diagnostics');
  },
  'cursor-single-use': (ctx) => {
    const cursor = pages(ctx, 1)[0]!.result.nextCursor;
    expect(exchange(ctx, rpc(1, 'tools/list', { cursor })).at(-1)!.result.tools.length).toBeGreaterThan(0);
    expect(exchange(ctx, rpc(2, 'tools/list', { cursor })).at(-1)!.error.code).toBe(-32602);
  },
};

showsEachDeviation(LISTING_DEFECTS, DEVIATIONS);
