import type { CheckContext } from '../../src/runner/context.js';
import { pool } from '../../src/runner/pool.js';

/**
 * The indexes of `names`, one group per distinct name, in first-seen order: a name listed twice is one tool, whose
 * calls stay in one lane and in order (a tool that timed out is then not called again), while different tools overlap.
 */
export function laneGroups(names: readonly string[]): number[][] {
  const groups = new Map<string, number[]>();
  names.forEach((name, index) => {
    const group = groups.get(name);
    if (group) group.push(index);
    else groups.set(name, [index]);
  });
  return [...groups.values()];
}

/** Up to --concurrency tools at once; the answers are kept in listing order. */
export async function perTool<T>(
  ctx: Pick<CheckContext, 'options'>,
  names: readonly string[],
  work: (index: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = new Array(names.length);
  await pool(laneGroups(names), ctx.options.concurrency ?? 1, async (group) => {
    for (const index of group) out[index] = await work(index);
  });
  return out;
}
