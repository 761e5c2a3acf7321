import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPARE_COMMAND } from './spare-protocol.js';

/** How much of an audit process's stderr is kept (its first lines explain a server that could not start). */
const STDERR_KEEP = 16 * 1024;

/** Audit processes alive now (spares included), for a fleet interrupted by a signal to pass it on. */
export const running = new Set<ChildProcess>();

/**
 * An audit process of our CLI started as a spare (spare-protocol.ts), in a private folder that is its working
 * directory (no config of another project is picked up there) and will hold its --config file.
 */
export interface SpareProcess {
  child: ChildProcess;
  dir: string;
  /** What it wrote to stderr so far (at most STDERR_KEEP characters). */
  stderr(): string;
}

export async function startSpare(cli: string): Promise<SpareProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'mtc-fleet-'));
  const child = spawn(process.execPath, [cli, SPARE_COMMAND], {
    cwd: dir,
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  running.add(child);
  child.once('close', () => running.delete(child));
  // A spare that died before its arguments arrive makes writing them fail; its exit says why.
  child.stdin!.on('error', () => undefined);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_KEEP) stderr += chunk.toString('utf8');
  });
  return { child, dir, stderr: () => stderr };
}

/** Ends a spare no server was given (its stdin ends without arguments) and removes its folder. */
export async function discardSpare(spare: SpareProcess): Promise<void> {
  const { child } = spare;
  if (child.exitCode === null && child.signalCode === null) {
    const closed = new Promise((done) => child.once('close', done));
    child.stdin!.end();
    await closed;
  }
  await rm(spare.dir, { recursive: true, force: true });
}

/**
 * The spares of one fleet: up to `most` started ahead of the servers still to start, each handed to the next one that
 * does. Each server takes exactly one process, so a fleet starts no more processes than it has servers to audit.
 */
export class SpareAudits {
  private readonly ahead: Promise<SpareProcess>[] = [];

  constructor(
    private readonly cli: string,
    private readonly most: number,
  ) {}

  /** The oldest spare started ahead, or a new one; one that ended before it was needed (it could not load) is replaced. */
  async take(): Promise<SpareProcess> {
    const ahead = this.ahead.shift();
    const spare = ahead ? await ahead : undefined;
    if (spare && spare.child.exitCode === null && spare.child.signalCode === null) return spare;
    if (spare) await discardSpare(spare);
    return startSpare(this.cli);
  }

  /** Starts spares now for the next of the `waiting` servers not started yet, while the running audits leave a core idle now and then. */
  prepare(waiting: number): void {
    while (this.ahead.length < Math.min(this.most, waiting)) {
      const spare = startSpare(this.cli);
      spare.catch(() => undefined);
      this.ahead.push(spare);
    }
  }

  /** Ends the spares no server took. */
  async close(): Promise<void> {
    const ahead = this.ahead.splice(0);
    await Promise.all(ahead.map((spare) => spare.then(discardSpare, () => undefined)));
  }
}
