import { readFileSync } from 'node:fs';

/** Alive and not a zombie waiting to be reaped (Linux: /proc). */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
