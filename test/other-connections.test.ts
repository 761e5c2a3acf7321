import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, ROOT, runCli } from './helpers/cli.js';
import { aliveAfter } from './helpers/processes.js';

/**
 * Over stdio another connection is another process of the target. The one the checks with a `prepare` hook share is
 * started while the CLI still waits for the audited process's first answer (src/runner/connection-opener.ts).
 */
const CHAOS = join(ROOT, 'test/fixtures/chaos-server.mjs');

function pidFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'mtc-connections-')), 'pids');
}

function started(file: string): number[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

async function expectAllEnded(pids: number[]): Promise<void> {
  expect(await aliveAfter(pids, 3000), 'processes outlived the audit').toEqual([]);
}

const chaos = (pids: string) => `${process.execPath} ${CHAOS} --pid-file ${pids}`;

describe.skipIf(!BUILT)('other connections to a stdio target', () => {
  it.concurrent(
    'start one more process of the target for the checks that share a connection, and use that one',
    async () => {
      const pids = pidFile();
      const run = await runCli([
        '--stdio',
        chaos(pids),
        '--checks',
        'tools.list.no-connection-variance,stdio.shutdown.*',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.report!.checks.find((c) => c.id === 'tools.list.no-connection-variance')?.status).toBe('pass');
      expect(started(pids)).toHaveLength(2);
      await expectAllEnded(started(pids));
    },
  );

  it.concurrent(
    'keep the quiet window of base.notif.no-response on a process of its own while checks overlap, and on the ' +
      'audited one at --concurrency 1',
    async () => {
      for (const [concurrency, processes] of [
        ['4', 2],
        ['1', 1],
      ] as const) {
        const pids = pidFile();
        const run = await runCli([
          '--stdio',
          chaos(pids),
          '--checks',
          'base.notif.no-response',
          '--concurrency',
          concurrency,
        ]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.report!.checks.map((c) => c.status)).toEqual(['pass']);
        expect(started(pids), `--concurrency ${concurrency}`).toHaveLength(processes);
        await expectAllEnded(started(pids));
      }
    },
  );

  it.concurrent('start none when no selected check opens another connection', async () => {
    const pids = pidFile();
    const run = await runCli(['--stdio', chaos(pids), '--checks', 'tools.name.*']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report!.checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(0);
    expect(started(pids)).toHaveLength(1);
    await expectAllEnded(started(pids));
  });

  it.concurrent('close the one started ahead when the audit ends before any check runs', async () => {
    const pids = pidFile();
    // Never answers: the negotiation times out, so no check ever asks for the spare process.
    const silent = join(mkdtempSync(join(tmpdir(), 'mtc-silent-')), 'silent.cjs');
    writeFileSync(
      silent,
      `require('fs').appendFileSync(${JSON.stringify(pids)}, process.pid + '\\n'); setInterval(() => {}, 1000);`,
    );
    const run = await runCli([
      '--stdio',
      `${process.execPath} ${silent}`,
      '--checks',
      'tools.list.no-connection-variance',
      '--timeout',
      '1000',
    ]);
    expect(run.code, run.stderr).toBe(3);
    expect(started(pids)).toHaveLength(2);
    await expectAllEnded(started(pids));
  });
});
