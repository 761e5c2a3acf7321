import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_WORKER_COMMAND,
  AUDIT_RESULTS_FD,
  AUDIT_WORKER_REUSE_FLAG,
} from '../src/fleet/run/audit-worker-protocol.js';
import { BUILT, CLI, ROOT } from './helpers/cli.js';

/** Our CLI started as a fleet's worker (src/fleet/run/audit-pool.ts), fed `input` on its stdin. */
const worker = (input: string) =>
  spawnSync(process.execPath, [CLI, AUDIT_WORKER_COMMAND], {
    input,
    encoding: 'utf8',
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });

describe.skipIf(!BUILT)('the CLI as a fleet worker', () => {
  it('runs the arguments its stdin gives it, as the same command line would', () => {
    const asWorker = worker(`${JSON.stringify(['--list'])}\n`);
    const direct = spawnSync(process.execPath, [CLI, '--list'], {
      encoding: 'utf8',
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(asWorker.status).toBe(0);
    expect(asWorker.stdout).toContain('tools.list.respond');
    expect(asWorker.stdout).toBe(direct.stdout);
  });

  it('exits 0 without a word when its stdin ends with no arguments (a worker the fleet did not need)', () => {
    const unused = worker('');
    expect(unused.status).toBe(0);
    expect(unused.stdout).toBe('');
    expect(unused.stderr).toBe('');
  });

  it('with the reuse flag, runs each line in turn and reports each end on its results descriptor', async () => {
    const child = spawn(process.execPath, [CLI, AUDIT_WORKER_COMMAND, AUDIT_WORKER_REUSE_FLAG], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let results = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stdio[AUDIT_RESULTS_FD]!.on('data', (chunk: Buffer) => (results += chunk.toString('utf8')));
    child.stdin!.end(
      `${JSON.stringify(['--list', '--checks', 'tools.list.respond'])}\n` +
        `${JSON.stringify(['--list', '--checks', 'tools.err.unknown-tool'])}\n`,
    );
    const code = await new Promise((done) => child.once('close', done));
    expect(code).toBe(0);
    expect(
      results
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { exitCode: 0, reusable: true },
      { exitCode: 0, reusable: true },
    ]);
    expect(stdout.indexOf('tools.list.respond')).toBeGreaterThanOrEqual(0);
    expect(stdout.indexOf('tools.err.unknown-tool')).toBeGreaterThan(stdout.indexOf('tools.list.respond'));
  });

  it('refuses arguments that are not a JSON array of strings, as an internal error', () => {
    const broken = worker('{"run": true}\n');
    expect(broken.status).toBe(3);
    expect(broken.stderr).toMatch(/not an array of strings/);
  });
});
