import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, CLI, REFERENCE } from './helpers/cli.js';
import { isAlive } from './helpers/processes.js';

/** Processes whose command line contains `marker`, other than pgrep itself. */
function processesWith(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Polls `ready` until it holds; a loaded CI machine can take seconds to start the processes. */
async function until(ready: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    if (ready()) return true;
  }
  return ready();
}

async function diesWithin(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    if (!isAlive(pid)) return true;
  }
  return !isAlive(pid);
}

describe.skipIf(!BUILT)('Ctrl-C', () => {
  it('kills the target (and its own children) and exits 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-sigint-'));
    const marker = dir.split('/').pop()!;
    // A wrapper that starts the hanging reference server as a grandchild, as npx would.
    const wrapper = join(dir, 'wrapper.cjs');
    writeFileSync(
      wrapper,
      `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(REFERENCE)}, '--defect', ` +
        `'hang-on-list', '--log-arrivals', ${JSON.stringify(join(dir, 'arrivals.log'))}], { stdio: 'inherit' });` +
        `require('fs').writeFileSync(${JSON.stringify(join(dir, 'grandchild.pid'))}, String(c.pid)); ` +
        `setInterval(() => {}, 1000);`,
    );
    const cli = spawn(process.execPath, [
      CLI,
      '--stdio',
      `${process.execPath} ${wrapper}`,
      '--timeout',
      '30000',
      '--reporter',
      'json',
      '--output-dir',
      dir,
    ]);
    let stderr = '';
    cli.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const pidFile = join(dir, 'grandchild.pid');
    const arrivals = join(dir, 'arrivals.log');
    expect(
      await until(() => existsSync(pidFile) && existsSync(arrivals), 30_000),
      'the target never received a message',
    ).toBe(true);
    expect(processesWith(marker).length).toBeGreaterThan(0);
    cli.kill('SIGINT');
    const code = await new Promise<number | null>((done) => cli.on('close', done));
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted/);
    await new Promise((r) => setTimeout(r, 300));
    expect(processesWith(marker).filter((pid) => isAlive(Number(pid)))).toEqual([]);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(await diesWithin(grandchild, 2000), `reference server pid ${grandchild} survived`).toBe(true);
  });

  it('SIGTERM (a CI runner cancelling the job) exits 143, as shells report 128 + 15', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-sigterm-'));
    const arrivals = join(dir, 'arrivals.log');
    const cli = spawn(process.execPath, [
      CLI,
      '--stdio',
      `${process.execPath} ${REFERENCE} --defect hang-on-list --log-arrivals ${arrivals}`,
      '--timeout',
      '30000',
      '--reporter',
      'json',
      '--output-dir',
      dir,
    ]);
    let stderr = '';
    cli.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    expect(await until(() => existsSync(arrivals), 30_000), 'the target never received a message').toBe(true);
    cli.kill('SIGTERM');
    const code = await new Promise<number | null>((done) => cli.on('close', done));
    expect(code).toBe(143);
    expect(stderr).toMatch(/interrupted \(SIGTERM\)/);
  });
});
