import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../model/report.js';
import type { AuditRun } from './outcome.js';
import type { AuditInvocation } from './plan.js';

/** Past its --max-duration, how long an audit may take to stop and write its report before it is stopped. */
export const HARD_STOP_MARGIN_MS = 15_000;
/** After SIGTERM (the audit then kills its target and exits), how long before SIGKILL. */
const KILL_GRACE_MS = 5_000;
const STDERR_LINES = 8;
const STDERR_KEEP = 16 * 1024;

/** Audit processes running now, for a fleet interrupted by a signal to pass it on. */
export const running = new Set<import('node:child_process').ChildProcess>();

/**
 * One server's audit, as a process of our own CLI: a hostile or broken server can crash, hang or flood only that
 * process. Its secrets (env and header values) go in a --config file only this user can read, in a private folder
 * that is also the process's working directory (no config of another project is picked up there), removed after.
 */
export async function runAuditProcess(
  cli: string,
  invocation: AuditInvocation,
  reportFile: string,
  budgetMs: number,
  stopping: { marginMs: number; graceMs: number } = { marginMs: HARD_STOP_MARGIN_MS, graceMs: KILL_GRACE_MS },
): Promise<AuditRun> {
  const dir = await mkdtemp(join(tmpdir(), 'mtc-fleet-'));
  try {
    const configFile = join(dir, 'secrets.json');
    await writeFile(configFile, JSON.stringify(invocation.config), { mode: 0o600 });
    const child = spawn(process.execPath, [cli, 'run', ...invocation.args, '--config', configFile], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    running.add(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEEP) stderr += chunk.toString('utf8');
    });
    let killed = false;
    const stop = setTimeout(() => {
      killed = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), stopping.graceMs).unref();
    }, budgetMs + stopping.marginMs);
    const exitCode = await new Promise<number | null>((done) => {
      child.once('error', () => done(null));
      child.once('close', (code) => done(code));
    });
    clearTimeout(stop);
    running.delete(child);
    const report = killed ? undefined : await readReport(reportFile);
    const lines = stderr.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '').slice(0, STDERR_LINES);
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
