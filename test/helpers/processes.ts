import { readFileSync } from 'node:fs';

/** Alive and not a zombie waiting to be reaped (Linux: /proc). */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pids still alive after up to `withinMs`: a SIGKILL takes effect a moment after it is sent. */
export async function aliveAfter(pids: readonly number[], withinMs = 2_000): Promise<number[]> {
  const until = performance.now() + withinMs;
  while (pids.some(isAlive) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return pids.filter(isAlive);
}
