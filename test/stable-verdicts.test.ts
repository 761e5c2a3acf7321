import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../src/model/report.js';
import { depthLine } from '../src/report/depth-line.js';
import { BUILT, explain, ROOT, runCli } from './helpers/cli.js';

const crowded = `${process.execPath} ${join(ROOT, 'test/fixtures/crowded-server.mjs')}`;

/**
 * What a verdict is made of: (check, tool, status). The cancellation check is left out: it judges the calls that
 * outlived --timeout, so it has nothing to judge where none did (--concurrency 1 here) and passes where the retried
 * ones were cancelled.
 */
const verdicts = (report: RunReport): string[] =>
  report.checks
    .filter((c) => c.id !== 'stdio.cancel.server-silence')
    .map((c) => `${c.id} ${c.tool ?? ''} ${c.status}`)
    .sort();

// A server whose tools take 3.5 s once more than two calls are in flight, and 20 ms otherwise, audited with --timeout
// 2500 (long enough for every other request on a loaded machine): the default --concurrency pushes calls past the
// timeout, and the audit must not hold that against the server.
describe.skipIf(!BUILT)('the same verdicts every run, whatever our concurrency does to a server', () => {
  it('three runs at the default --concurrency give the (check, tool, status) set of --concurrency 1; the calls that timed out among others were answered alone', async () => {
    const audit = (...extra: string[]) =>
      runCli(['--stdio', crowded, '--timeout', '2500', '--runs', '10', ...extra], { timeoutMs: 90_000 });
    const [alone, ...runs] = await Promise.all([audit('--concurrency', '1'), audit(), audit(), audit()]);
    const expected = verdicts(alone!.report!);
    expect(alone!.report!.depth!.timeouts, explain(alone!.report)).toBeUndefined();
    for (const run of runs) {
      const report = run.report!;
      const got = verdicts(report);
      const differences = {
        missing: expected.filter((v) => !got.includes(v)),
        extra: got.filter((v) => !expected.includes(v)),
        count: got.length - expected.length,
      };
      expect(differences, explain(report)).toEqual({ missing: [], extra: [], count: 0 });
      const timeouts = report.depth!.timeouts!;
      expect(timeouts.calls).toBeGreaterThan(0);
      expect(timeouts.answeredAlone).toBe(timeouts.calls);
      expect(timeouts.stillTimedOut).toEqual([]);
      expect(report.stats.timeouts!.pace!.halvings).toBeGreaterThan(0);
      expect(depthLine(report.depth!)).toMatch(
        /; \d+ calls? timed out \([a-z_, ]+\): \d+ answered when retried alone$/,
      );
    }
    expect(expected.filter((v) => / (fail|error)$/.test(v))).toEqual([]);
  }, 120_000);
});
