/** The seed an audit uses when --seed is not given: fixed, so that two audits of the same server agree. */
export const DEFAULT_SEED = 20260728;

/** Cases per tool and property when --runs is not given. */
export const DEFAULT_RUNS = 50;

/** FNV-1a over the text: each (check, tool) pair gets its own fast-check seed, whatever order the checks run in. */
export function derivedSeed(seed: number, check: string, tool: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}\u0000${check}\u0000${tool}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}
