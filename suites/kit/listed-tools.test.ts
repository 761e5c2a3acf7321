import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import type { ToolWalk } from '../../src/protocol/tool-walk.js';
import type { Exchange } from '../../src/model/exchange.js';
import { listedTools } from './listed-tools.js';

const exchange = (seq: number): Exchange => ({ seq, sentAt: '', durationMs: 1, request: {}, notifications: [] });

function walkOf(pages: unknown[][]): ToolWalk {
  return {
    pages: pages.map((tools, i) => ({
      exchange: exchange(i + 1),
      cursor: i === 0 ? undefined : String(i),
      result: { tools },
    })),
    tools: pages.flat().filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null),
    stop: { kind: 'complete' },
  };
}

const contextOf = (walk: ToolWalk) => ({ tools: async () => walk }) as unknown as CheckContext;

describe('listedTools', () => {
  it('labels each tool object with its page and index, a nameless one by its place in the listing', async () => {
    const walk = walkOf([[{ name: 'a' }, 'not a tool'], [{ title: 'nameless' }]]);
    const listed = await listedTools(contextOf(walk));
    expect(listed.map((t) => [t.label, t.page.exchange.seq, t.index])).toEqual([
      ['a', 1, 0],
      ['#3', 2, 0],
    ]);
  });

  it('builds the list once per walk: every check of the audit gets the same (frozen) array; another walk its own', async () => {
    const walk = walkOf([[{ name: 'a' }, { name: 'b' }]]);
    const first = await listedTools(contextOf(walk));
    expect(await listedTools(contextOf(walk))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const other = await listedTools(contextOf(walkOf([[{ name: 'a' }, { name: 'b' }]])));
    expect(other).not.toBe(first);
    expect(other.map((t) => t.label)).toEqual(first.map((t) => t.label));
  });
});
