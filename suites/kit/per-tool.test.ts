import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { laneGroups, perTool } from './per-tool.js';

describe('perTool', () => {
  it('groups a name listed twice into one lane, in listing order', () => {
    expect(laneGroups(['a', 'b', 'a', 'c', 'b'])).toEqual([[0, 2], [1, 4], [3]]);
  });

  it('overlaps different tools up to --concurrency, keeps one tool in order, and returns answers in listing order', async () => {
    const names = ['a', 'b', 'c', 'a', 'd', 'e', 'f'];
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const ctx = { options: { timeoutMs: 1_000, concurrency: 3 } } as Pick<CheckContext, 'options'>;
    const done = perTool(ctx, names, async (index) => {
      started.push(index);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => release.push(resolve));
      inFlight -= 1;
      return `${names[index]}#${index}`;
    });
    // Let the answers come in one by one, oldest first, until every index has run.
    for (let turn = 0; turn < 50; turn += 1) {
      await new Promise((r) => setImmediate(r));
      release.shift()?.();
    }
    expect(await done).toEqual(['a#0', 'b#1', 'c#2', 'a#3', 'd#4', 'e#5', 'f#6']);
    expect(most).toBe(3);
    expect(started.indexOf(3)).toBeGreaterThan(started.indexOf(0));
    expect(started.slice(0, 3).sort()).toEqual([0, 1, 2]);
  });

  it('runs one at a time without --concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const ctx = { options: { timeoutMs: 1_000 } } as Pick<CheckContext, 'options'>;
    await perTool(ctx, ['a', 'b', 'c'], async () => {
      most = Math.max(most, (inFlight += 1));
      await new Promise((r) => setTimeout(r, 1));
      inFlight -= 1;
    });
    expect(most).toBe(1);
  });
});
