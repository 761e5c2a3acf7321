import type { ChildProcess } from 'node:child_process';

/** Every target process we started, so that no exit path (normal, Ctrl-C, our own crash) leaves an orphan. */
const live = new Set<ChildProcess>();
let hooked = false;

export function trackChild(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', killAllNow);
  }
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // The whole process group: wrappers such as npx leave the real server as a grandchild.
    process.kill(-child.pid, signal);
  } catch {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

export function killAllNow(): void {
  for (const child of live) killGroup(child, 'SIGKILL');
  live.clear();
}

export function liveChildCount(): number {
  return live.size;
}
