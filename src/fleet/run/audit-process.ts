import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../../model/report.js';
import type { AuditRun } from './outcome.js';
import type { AuditInvocation } from './plan.js';
import { startSpare, type SpareProcess } from './spare-process.js';

/** Past its --max-duration, how long an audit may take to stop and write its report before it is stopped. */
export const HARD_STOP_MARGIN_MS = 15_000;
/** After SIGTERM (the audit then kills its target and exits), how long before SIGKILL. */
const KILL_GRACE_MS = 5_000;
const STDERR_LINES = 8;

/**
 * One server's audit, as a process of our own CLI: a hostile or broken server can crash, hang or flood only that
 * process. It runs in `spare`, a process started ahead (spare-process.ts), or in one started now. Its secrets (env and
 * header values) go in a --config file only this user can read, in the process's private folder, removed after; its
 * arguments go to it on its stdin, never on a command line.
 */
export async function runAuditProcess(
  cli: string,
  invocation: AuditInvocation,
  reportFile: string,
  budgetMs: number,
  spare: Promise<SpareProcess> = startSpare(cli),
  stopping: { marginMs: number; graceMs: number } = { marginMs: HARD_STOP_MARGIN_MS, graceMs: KILL_GRACE_MS },
): Promise<AuditRun> {
  const { child, dir, stderr } = await spare;
  try {
    const configFile = join(dir, 'secrets.json');
    await writeFile(configFile, JSON.stringify(invocation.config), { mode: 0o600 });
    const exited = new Promise<number | null>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
      child.once('error', () => done(null));
      child.once('close', (code) => done(code));
    });
    child.stdin!.end(`${JSON.stringify(['run', ...invocation.args, '--config', configFile])}\n`);
    let killed = false;
    const stop = setTimeout(() => {
      killed = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), stopping.graceMs).unref();
    }, budgetMs + stopping.marginMs);
    const exitCode = await exited;
    clearTimeout(stop);
    const report = killed ? undefined : await readReport(reportFile);
    const lines = stderr().split('\n').map((l) => l.trimEnd()).filter((l) => l !== '').slice(0, STDERR_LINES);
    return { exitCode, killed, ...(report ? { report } : {}), stderr: lines, budgetMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
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
