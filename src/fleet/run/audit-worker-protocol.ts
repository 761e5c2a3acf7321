import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * A fleet's audit workers: our CLI, started with AUDIT_WORKER_COMMAND, loads what an audit needs and then waits for
 * its arguments, one JSON array of strings per line of its stdin. Started with AUDIT_WORKER_REUSE_FLAG (as a fleet
 * does), it reports the end of each audit as one JSON line (AuditWorkerResult) on file descriptor AUDIT_RESULTS_FD and
 * then waits for the next line: a lane's later audits then run in a process whose code is loaded and compiled already
 * (about half the CPU of a fresh process, Node's start-up apart). Its stdin ending ends it.
 */
export const AUDIT_WORKER_COMMAND = 'fleet-audit-worker';
export const AUDIT_WORKER_REUSE_FLAG = '--reuse';
export const AUDIT_RESULTS_FD = 3;

/**
 * A process is given no further audit once its heap holds this much after one (what an audit leaves behind is
 * garbage by then; more means something kept it), or once it has run this many: each audit then starts from a process
 * that has seen few others.
 */
export const REUSE_LIMITS = { heapBytes: 256 * 1024 * 1024, audits: 20 } as const;

/** The end of one audit in a reused process: its exit code, and whether the process takes another. */
export interface AuditWorkerResult {
  exitCode: number;
  reusable: boolean;
}

function parseArguments(line: string): string[] {
  const parsed: unknown = JSON.parse(line);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error('a worker audit process was given arguments that are not an array of strings');
  return parsed;
}

/** Each line's arguments, until stdin ends or a blank line comes; the stream is read only as far as each line. */
async function* argumentLines(input: NodeJS.ReadableStream): AsyncGenerator<string[]> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.trim() === '') return;
      yield parseArguments(line.trim());
    }
  } finally {
    lines.close();
  }
}

/**
 * Runs a worker: the first line's audit, and with `resultsFd` every later line's too, each reported there as it ends.
 * `between` runs before each audit after the first (what one audit leaves in the process must not reach the next).
 * Returns the exit code the process should end with: the last audit's, or 0 when it was given none.
 */
export async function runAuditWorker(
  input: NodeJS.ReadableStream,
  audit: (args: string[]) => Promise<number>,
  options: { resultsFd?: number; between?: () => void; heapUsed?: () => number } = {},
): Promise<number> {
  let exitCode = 0;
  let audits = 0;
  const heapUsed = options.heapUsed ?? (() => process.memoryUsage().heapUsed);
  for await (const args of argumentLines(input)) {
    if (audits > 0) options.between?.();
    exitCode = await audit(args);
    audits += 1;
    if (options.resultsFd === undefined) return exitCode;
    const reusable = audits < REUSE_LIMITS.audits && heapUsed() < REUSE_LIMITS.heapBytes;
    const result: AuditWorkerResult = { exitCode, reusable };
    writeSync(options.resultsFd, `${JSON.stringify(result)}\n`);
    if (!reusable) return exitCode;
  }
  return exitCode;
}
