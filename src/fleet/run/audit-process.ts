import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../../model/report.js';
import type { AuditRun } from './outcome.js';
import type { AuditInvocation } from './plan.js';
import { AuditProcesses, type AuditWorker } from './audit-pool.js';

/** Past its --max-duration, how long an audit may take to stop and write its report before it is stopped. */
export const HARD_STOP_MARGIN_MS = 15_000;
/** After SIGTERM (the audit then kills its target and exits), how long before SIGKILL. */
const KILL_GRACE_MS = 5_000;
const STDERR_LINES = 8;

/**
 * One server's audit, in a process of our own CLI: a hostile or broken server can crash, hang or flood only that
 * process. The process comes from `processes` (audit-pool.ts), which may have run an earlier audit of the fleet
 * and ended it normally; one that is stopped, or whose audit did not end normally, runs no other. Its secrets (env and
 * header values) go in a --config file only this user can read, in the process's private folder, removed after the
 * audit; its arguments go to it on its stdin, never on a command line.
 */
export async function runAuditProcess(
  cli: string,
  invocation: AuditInvocation,
  reportFile: string,
  budgetMs: number,
  processes?: AuditProcesses,
  stopping: { marginMs: number; graceMs: number } = { marginMs: HARD_STOP_MARGIN_MS, graceMs: KILL_GRACE_MS },
): Promise<AuditRun> {
  const pool = processes ?? new AuditProcesses(cli);
  try {
    let worker = await pool.take();
    let run = await auditIn(worker, invocation, reportFile, budgetMs, stopping);
    await pool.release(worker, run.reusable);
    if (worker.audits > 1 && !run.ended && !run.killed) {
      // The process ended during a later audit than its first: what an earlier one left in it may be why. The server
      // is audited again in a fresh process, so that its outcome is its own.
      worker = await pool.fresh();
      run = await auditIn(worker, invocation, reportFile, budgetMs, stopping);
      await pool.release(worker, run.reusable);
    }
    return run.audit;
  } finally {
    if (!processes) await pool.close();
  }
}

interface ProcessRun {
  audit: AuditRun;
  killed: boolean;
  /** Whether the process reported the audit's end (rather than exiting during it). */
  ended: boolean;
  reusable: boolean;
}

async function auditIn(
  worker: AuditWorker,
  invocation: AuditInvocation,
  reportFile: string,
  budgetMs: number,
  stopping: { marginMs: number; graceMs: number },
): Promise<ProcessRun> {
  const { child, dir } = worker;
  const configFile = join(dir, 'secrets.json');
  try {
    await writeFile(configFile, JSON.stringify(invocation.config), { mode: 0o600 });
    worker.takeStderr();
    worker.audits += 1;
    const ended = worker.nextResult();
    child.stdin!.write(`${JSON.stringify(['run', ...invocation.args, '--config', configFile])}\n`);
    let killed = false;
    const stop = setTimeout(() => {
      killed = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), stopping.graceMs).unref();
    }, budgetMs + stopping.marginMs);
    const result = await ended;
    clearTimeout(stop);
    const exitCode = result?.exitCode ?? (await worker.exited);
    const report = killed ? undefined : await readReport(reportFile);
    const lines = worker
      .takeStderr()
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '')
      .slice(0, STDERR_LINES);
    return {
      audit: { exitCode, killed, ...(report ? { report } : {}), stderr: lines, budgetMs },
      killed,
      ended: result !== undefined,
      reusable: !killed && result?.reusable === true,
    };
  } finally {
    await rm(configFile, { force: true });
  }
}

async function readReport(file: string): Promise<RunReport | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as RunReport;
    return typeof parsed === 'object' && parsed !== null && Array.isArray(parsed.checks) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
