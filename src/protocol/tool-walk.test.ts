import { describe, expect, it } from 'vitest';
import type { Transport } from '../transport/types.js';
import { LATEST_REVISION } from '../core/revision.js';
import { McpClient } from './client.js';
import { MAX_INTERNED_PAGE_CHARS, pageKey, ToolPages } from './tool-pages.js';
import { walkTools } from './tool-walk.js';

const tool = (name: string, description = `the ${name} tool`) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
});

/**
 * A stdio target listing `pages()` (asked again on every walk), each answer parsed afresh from its text as a transport
 * does.
 */
function lister(pages: () => object[][], toolPages?: ToolPages): McpClient {
  let seq = 0;
  const transport: Transport = {
    kind: 'stdio',
    description: 'lister',
    start: async () => undefined,
    send: async (message) => {
      const { id, params } = message as { id: number; params?: { cursor?: string } };
      const all = pages();
      const index = params?.cursor === undefined ? 0 : Number(params.cursor);
      const result = { tools: all[index], ...(index + 1 < all.length ? { nextCursor: String(index + 1) } : {}) };
      return {
        seq: (seq += 1),
        sentAt: '',
        durationMs: 1,
        request: message,
        notifications: [],
        response: JSON.parse(JSON.stringify({ jsonrpc: '2.0', id, result })),
      };
    },
    strays: () => [],
    stderr: () => '',
    close: async () => undefined,
  };
  const client = new McpClient(transport, { name: 'test', version: '0' }, toolPages);
  client.wire = LATEST_REVISION;
  return client;
}

describe('walkTools shares the pages it has received before (protocol/tool-pages.ts)', () => {
  it('a listing walked again, on the same connection or another of the audit, keeps the first parse; the evidence reads the same', async () => {
    const listing = [[tool('a'), tool('b')], [tool('c')]];
    const client = lister(() => listing);
    const first = await walkTools(client);
    const again = await walkTools(client);
    const other = await walkTools(lister(() => listing, client.toolPages));
    for (const walk of [again, other]) {
      expect(walk.stop.kind).toBe('complete');
      walk.tools.forEach((t, i) => expect(t).toBe(first.tools[i]));
      walk.pages.forEach((page, i) =>
        expect(JSON.stringify(page.exchange.response)).toBe(
          JSON.stringify(first.pages[i]!.exchange.response).replace(
            /"id":\d+/,
            `"id":${(page.exchange.request as { id: number }).id}`,
          ),
        ),
      );
    }
  });

  it('a page that changed in any way, key order included, is kept as received; connections of another audit share nothing', async () => {
    let listing = [[tool('a'), tool('b')]];
    const client = lister(() => listing);
    const first = await walkTools(client);
    listing = [[tool('a'), tool('b', 'changed')]];
    const changed = await walkTools(client);
    expect(changed.tools[0]).not.toBe(first.tools[0]);
    expect(changed.tools[1]!.description).toBe('changed');
    listing = [[tool('a'), { description: 'the b tool', name: 'b', inputSchema: tool('b').inputSchema }]];
    expect(Object.keys((await walkTools(client)).tools[1]!)).toEqual(['description', 'name', 'inputSchema']);
    const unrelated = await walkTools(lister(() => [[tool('a'), tool('b')]]));
    expect(unrelated.tools[0]).not.toBe(first.tools[0]);
    expect(unrelated.tools[0]).toEqual(first.tools[0]);
  });

  it('shares at most MAX_INTERNED_PAGE_CHARS of page text: later pages are kept as received', () => {
    const pages = new ToolPages();
    const kept = [1];
    expect(pages.intern(pageKey('x'), MAX_INTERNED_PAGE_CHARS - 1, kept)).toBe(kept);
    expect(pages.intern(pageKey('x'), MAX_INTERNED_PAGE_CHARS - 1, [2])).toBe(kept);
    const late = [3];
    expect(pages.intern(pageKey('yy'), 2, late)).toBe(late);
    expect(pages.intern(pageKey('yy'), 2, [4])).toEqual([4]);
  });

  it('keys pages by a digest of their text, not the text (pageKey): equal texts, equal keys; any change, another key', () => {
    const text = JSON.stringify([tool('a'), tool('b')]);
    expect(pageKey(text)).toBe(pageKey(JSON.stringify([tool('a'), tool('b')])));
    expect(pageKey(text)).not.toBe(pageKey(JSON.stringify([tool('a'), tool('b', 'changed')])));
    expect(pageKey(text).length).toBeLessThan(50);
  });

  it('a page that repeats an earlier page of the same walk under a fresh cursor still stops the walk (page-repeat)', async () => {
    const walk = await walkTools(lister(() => [[tool('a')], [tool('b')], [tool('a')], [tool('c')]]));
    expect(walk.stop).toMatchObject({ kind: 'page-repeat', page: 3, repeatsPage: 1 });
    expect(walk.tools.map((t) => t.name)).toEqual(['a', 'b']);
  });
});
