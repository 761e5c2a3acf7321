import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  AUDIT_WORKER_COMMAND,
  AUDIT_RESULTS_FD,
  AUDIT_WORKER_REUSE_FLAG,
  type AuditWorkerResult,
} from './audit-worker-protocol.js';

/** How much of one audit's stderr is kept (its first lines explain a server that could not start). */
const STDERR_KEEP = 16 * 1024;

/** Audit processes alive now (idle ones included), for a fleet interrupted by a signal to pass it on. */
export const running = new Set<ChildProcess>();

/**
 * An audit process of our CLI (audit-worker-protocol.ts), in a private folder that is its working directory (no config
 * of another project is picked up there) and holds each audit's --config file.
 */
export interface AuditWorker {
  child: ChildProcess;
  dir: string;
  /** How many audits it was given so far. */
  audits: number;
  /** What it wrote to stderr since the last call (at most STDERR_KEEP characters), for the audit it ran meanwhile. */
  takeStderr(): string;
  /**
   * The end of the audit it was last given (its stderr read by then): its AuditWorkerResult, or undefined when the
   * process ended instead.
   */
  nextResult(): Promise<AuditWorkerResult | undefined>;
  /** Its exit code once it has ended (null for a signal, or when it could not be started). */
  exited: Promise<number | null>;
}

export async function startAuditWorker(cli: string): Promise<AuditWorker> {
  const dir = await mkdtemp(join(tmpdir(), 'mtc-fleet-'));
  const child = spawn(process.execPath, [cli, AUDIT_WORKER_COMMAND, AUDIT_WORKER_REUSE_FLAG], {
    cwd: dir,
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  running.add(child);
  const exited = new Promise<number | null>((done) => {
    child.once('error', () => done(null));
    child.once('close', (code) => done(code));
  });
  void exited.then(() => running.delete(child));
  // A process that died before its arguments arrive makes writing them fail; its exit says why.
  child.stdin!.on('error', () => undefined);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_KEEP) stderr += chunk.toString('utf8');
  });
  return {
    child,
    dir,
    audits: 0,
    takeStderr: () => {
      const text = stderr;
      stderr = '';
      return text;
    },
    nextResult: resultReader(exited, child.stdio[AUDIT_RESULTS_FD] as Readable),
    exited,
  };
}

/** Reads a process's AuditWorkerResult lines in order; once it has ended, every further read is undefined. */
function resultReader(exited: Promise<unknown>, results: Readable): () => Promise<AuditWorkerResult | undefined> {
  const ready: AuditWorkerResult[] = [];
  const waiting: ((result: AuditWorkerResult | undefined) => void)[] = [];
  let partial = '';
  let ended = false;
  const settle = () => {
    while (waiting.length > 0 && (ready.length > 0 || ended)) {
      waiting.shift()!(ready.shift());
    }
  };
  results.setEncoding('utf8');
  results.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const part of parts) {
      const result = parseResult(part);
      if (result) ready.push(result);
    }
    settle();
  });
  results.on('error', () => undefined);
  // The process's 'close' comes after its stdio streams are drained: every line it wrote was read by then.
  void exited.then(() => {
    ended = true;
    settle();
  });
  // The audit's stderr was written before its result (synchronously, to a pipe): what of it was still unread when the
  // result came is read in the same turn of the event loop, before setImmediate's.
  return async () => {
    const result = await new Promise<AuditWorkerResult | undefined>((done) => {
      waiting.push(done);
      settle();
    });
    await new Promise(setImmediate);
    return result;
  };
}

/** A result line as the worker writes it; anything else on the descriptor is not one. */
function parseResult(line: string): AuditWorkerResult | undefined {
  try {
    const parsed = JSON.parse(line) as Partial<AuditWorkerResult> | null;
    return typeof parsed?.exitCode === 'number' && typeof parsed.reusable === 'boolean'
      ? { exitCode: parsed.exitCode, reusable: parsed.reusable }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Ends a process no further server was given (its stdin ends) and removes its folder. */
export async function discardAuditWorker(worker: AuditWorker): Promise<void> {
  const { child } = worker;
  if (child.exitCode === null && child.signalCode === null) child.stdin!.end();
  await worker.exited;
  await rm(worker.dir, { recursive: true, force: true });
}

/**
 * The audit processes of one fleet. A lane takes one when it starts a server's audit and gives it back when the audit
 * ends: one that ended its audit normally runs the lane's next audit too (its code is loaded and compiled by then),
 * any other is ended and replaced by a new one. So a fleet starts about one process per lane.
 */
export class AuditProcesses {
  private readonly idle: AuditWorker[] = [];
  private closed = false;

  constructor(private readonly cli: string) {}

  /** An idle process that is still alive, or a new one. */
  async take(): Promise<AuditWorker> {
    for (let worker = this.idle.pop(); worker; worker = this.idle.pop()) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) return worker;
      await discardAuditWorker(worker);
    }
    return this.fresh();
  }

  /** A new process, whatever is idle. */
  fresh(): Promise<AuditWorker> {
    return startAuditWorker(this.cli);
  }

  /** Takes back a process whose audit ended: kept for the next audit when `reusable`, else ended. */
  async release(worker: AuditWorker, reusable: boolean): Promise<void> {
    if (reusable && !this.closed) this.idle.push(worker);
    else await discardAuditWorker(worker);
  }

  /** Ends the idle processes; any given back later is ended too. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map(discardAuditWorker));
  }
}
