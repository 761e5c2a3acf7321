import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAuditProcess } from './audit-process.js';
import { AuditProcesses } from './audit-pool.js';
import { AUDIT_WORKER_COMMAND, AUDIT_WORKER_REUSE_FLAG } from './audit-worker-protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'mtc-audit-process-'));

/**
 * A stand-in for our CLI as an audit process: for each line of arguments on its stdin, writes what it was given (its
 * command line, the arguments, its pid and cwd, its --config file, that file's mode and content) as the report, says
 * "one", "two" and its audit's number on stderr, and reports the audit's end on fd 3. With CRASH_ON=n it exits with
 * code 3 during its n-th audit, reporting nothing (a process an earlier audit left broken); with ONCE set it ends after
 * its first audit without a result line, as a worker not run by a fleet does.
 */
const recorder = (env: string) => {
  const file = join(dir, `recorder-${env.replace(/\W/g, '_')}.mjs`);
  writeFileSync(
    file,
    /* eslint-disable max-len -- the source of a stand-in program, written out as it is */
    `${env}
import { readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  n += 1;
  if (n === CRASH_ON) process.exit(3);
  const argv = JSON.parse(line);
  const config = argv[argv.indexOf('--config') + 1];
  const out = argv[argv.indexOf('--output-dir') + 1];
  const seen = { commandLine: process.argv.slice(2), argv, pid: process.pid, audit: n, cwd: process.cwd(), config, mode: statSync(config).mode & 0o777, secrets: JSON.parse(readFileSync(config, 'utf8')) };
  writeFileSync(out + '/report.json', JSON.stringify({ checks: [], seen }));
  process.stderr.write('one\\n\\ntwo ' + n + '\\n');
  if (ONCE) process.exit(0);
  writeSync(3, JSON.stringify({ exitCode: 0, reusable: true }) + '\\n');
}
`,
    /* eslint-enable max-len */
  );
  return file;
};

/** A stand-in that never ends and ignores SIGTERM: only SIGKILL stops it. */
const STUBBORN = join(dir, 'stubborn.mjs');
writeFileSync(STUBBORN, `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`);

interface Seen {
  commandLine: string[];
  argv: string[];
  pid: number;
  audit: number;
  cwd: string;
  config: string;
  mode: number;
  secrets: unknown;
}
const seenIn = (run: Awaited<ReturnType<typeof runAuditProcess>>) => (run.report as unknown as { seen: Seen }).seen;
const invocationFor = (out: string, secret: string) => ({
  args: ['--stdio', 'node server.js', '--output-dir', out],
  config: { env: { API_KEY: secret } },
});
const outDir = () => mkdtempSync(join(tmpdir(), 'mtc-audit-out-'));

describe('runAuditProcess', () => {
  it('passes the secrets in a private config file, runs in a private folder, reads the report back and removes the folder', async () => {
    const out = outDir();
    const run = await runAuditProcess(
      recorder('const CRASH_ON = 0, ONCE = true;'),
      invocationFor(out, 'sk-secret-value-123'),
      join(out, 'report.json'),
      10_000,
    );
    const seen = seenIn(run);
    expect(run).toMatchObject({ exitCode: 0, killed: false, stderr: ['one', 'two 1'] });
    expect(seen.commandLine).toEqual([AUDIT_WORKER_COMMAND, AUDIT_WORKER_REUSE_FLAG]);
    expect(seen.argv.slice(0, 3)).toEqual(['run', '--stdio', 'node server.js']);
    expect(seen.argv.join(' ')).not.toContain('sk-secret-value-123');
    expect(seen.secrets).toEqual({ env: { API_KEY: 'sk-secret-value-123' } });
    expect(seen.mode).toBe(0o600);
    expect(seen.cwd).not.toBe(process.cwd());
    expect(seen.config.startsWith(seen.cwd)).toBe(true);
    expect(existsSync(seen.cwd)).toBe(false);
  });

  it('runs the next audit in the same process when the last one ended normally, each with its own secrets file and stderr', async () => {
    const processes = new AuditProcesses(recorder('const CRASH_ON = 0, ONCE = false;'));
    const [outA, outB] = [outDir(), outDir()];
    const a = await runAuditProcess(
      'unused',
      invocationFor(outA, 'sk-first'),
      join(outA, 'report.json'),
      10_000,
      processes,
    );
    expect(existsSync(seenIn(a).config)).toBe(false);
    const b = await runAuditProcess(
      'unused',
      invocationFor(outB, 'sk-second'),
      join(outB, 'report.json'),
      10_000,
      processes,
    );
    expect(seenIn(b)).toMatchObject({ pid: seenIn(a).pid, audit: 2, secrets: { env: { API_KEY: 'sk-second' } } });
    expect(a.stderr).toEqual(['one', 'two 1']);
    expect(b.stderr).toEqual(['one', 'two 2']);
    expect(existsSync(seenIn(b).config)).toBe(false);
    expect(existsSync(seenIn(b).cwd)).toBe(true);
    await processes.close();
    expect(existsSync(seenIn(b).cwd)).toBe(false);
  });

  it('audits a server again in a fresh process when its process ended during a later audit than its first', async () => {
    const processes = new AuditProcesses(recorder('const CRASH_ON = 2, ONCE = false;'));
    const [outA, outB] = [outDir(), outDir()];
    const a = await runAuditProcess(
      'unused',
      invocationFor(outA, 'sk-first'),
      join(outA, 'report.json'),
      10_000,
      processes,
    );
    const b = await runAuditProcess(
      'unused',
      invocationFor(outB, 'sk-second'),
      join(outB, 'report.json'),
      10_000,
      processes,
    );
    expect(b).toMatchObject({ exitCode: 0, killed: false, stderr: ['one', 'two 1'] });
    expect(seenIn(b).pid).not.toBe(seenIn(a).pid);
    expect(seenIn(b).audit).toBe(1);
    await processes.close();
  });

  it(
    'stops an audit that outlives its budget and margin, with SIGKILL when SIGTERM is ignored',
    { timeout: 20_000 },
    async () => {
      const out = outDir();
      const run = await runAuditProcess(
        STUBBORN,
        { args: ['--output-dir', out], config: {} },
        join(out, 'report.json'),
        100,
        undefined,
        { marginMs: 100, graceMs: 300 },
      );
      expect(run).toMatchObject({ exitCode: null, killed: true });
      expect(run.report).toBeUndefined();
    },
  );
});
