import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, referenceCommand, runCli, startReferenceHttp } from './helpers/cli.js';

interface Arrival {
  at: number;
  pid: string;
  what: string;
}

/** The reference server's --log-arrivals file, in time order (every process of the run writes to it). */
function arrivals(path: string): Arrival[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [at, pid, ...what] = line.split(' ');
      return { at: Number(at), pid: pid!, what: what.join(' ') };
    })
    .sort((a, b) => a.at - b.at);
}

/** The most arrivals in any window of `windowMs` (each window starts at an arrival). */
function busiestWindow(list: readonly Arrival[], windowMs: number): number {
  let most = 0;
  let end = 0;
  for (let start = 0; start < list.length; start += 1) {
    while (end < list.length && list[end]!.at < list[start]!.at + windowMs) end += 1;
    most = Math.max(most, end - start);
  }
  return most;
}

const logFile = () => join(mkdtempSync(join(tmpdir(), 'mtc-arrivals-')), 'arrivals.log');
const RPS = 20;
/** The property search would send hundreds of calls at 20 a second; these tests are about pacing, not search. */
const FEW_CASES = ['--exclude-checks', '*.property'];
// A message written while a freshly spawned target is still booting is read together with the next one, so arrivals may
// bunch by a couple; without the cap the whole audit (50+ messages) arrives within one window.
const BUNCHING = 3;

// Paced runs, each against a server of its own: they wait side by side (a paced run uses little CPU).
describe.concurrent('paced runs', () => {
  describe.skipIf(!BUILT)('--max-rps', () => {
    it(
      `over stdio: every message of the run, from every process it starts, arrives at most ${RPS} a second`,
      { timeout: 60_000 },
      async () => {
        const log = logFile();
        const run = await runCli([
          '--stdio',
          referenceCommand('--log-arrivals', log),
          '--max-rps',
          String(RPS),
          ...FEW_CASES,
        ]);
        expect(explain(run.report)).toBe('(no fail/warn/error)');
        expect(run.code).toBe(0);
        expect(run.report!.options).toEqual({
          timeoutMs: 10_000,
          maxDurationMs: 300_000,
          maxMessageBytes: 16 * 1024 * 1024,
          concurrency: 4,
          maxRps: RPS,
        });
        const list = arrivals(log);
        expect(list.length).toBeGreaterThan(40);
        expect(new Set(list.map((a) => a.pid)).size, 'extra connections are separate processes').toBeGreaterThan(1);
        expect(busiestWindow(list, 1000)).toBeLessThanOrEqual(RPS + BUNCHING);
        expect(list.at(-1)!.at - list[0]!.at).toBeGreaterThanOrEqual(((list.length - 1 - BUNCHING) * 1000) / RPS);
      },
    );

    it(
      'over HTTP: a 429 Retry-After holds every request back, the cap holds before and after, and the audit is clean',
      { timeout: 60_000 },
      async () => {
        const log = logFile();
        const server = await startReferenceHttp('--log-arrivals', log, '--rate-limit-once', '1');
        try {
          const run = await runCli(['--url', server.url, '--max-rps', String(RPS), ...FEW_CASES]);
          expect(explain(run.report)).toBe('(no fail/warn/error)');
          expect(run.code).toBe(0);
          const list = arrivals(log);
          expect(list.some((a) => a.what.startsWith('GET')) && list.some((a) => a.what.startsWith('DELETE'))).toBe(
            true,
          );
          const refused = list.findIndex((a) => a.what.endsWith(' 429'));
          expect(refused).toBeGreaterThan(0);
          const next = list[refused + 1]!;
          expect(next.what).toBe('POST tools/list');
          expect(next.at - list[refused]!.at, 'nothing is sent while Retry-After runs').toBeGreaterThanOrEqual(950);
          expect(busiestWindow(list, 1000)).toBeLessThanOrEqual(RPS + 1);
        } finally {
          await server.stop();
        }
      },
    );

    it(
      'over HTTP: a Retry-After longer than 30 s ends the audit with that reason instead of waiting',
      { timeout: 30_000 },
      async () => {
        const server = await startReferenceHttp('--rate-limit-once', '120');
        try {
          const run = await runCli(['--url', server.url, '--max-rps', String(RPS)]);
          expect(run.code).toBe(3);
          expect(run.wallMs).toBeLessThan(20_000);
          expect(run.report!.aborted!.reason).toMatch(
            /^the target refused further requests during \S+: HTTP 429 Too Many Requests with Retry-After: 120 \(120 s\), longer than the 30 s an audit waits/,
          );
        } finally {
          await server.stop();
        }
      },
    );

    it(
      'ends within --max-duration: requests whose turn comes later give up and the report says the run was cut short',
      { timeout: 30_000 },
      async () => {
        const run = await runCli(['--stdio', referenceCommand(), '--max-rps', '2', '--max-duration', '1500']);
        expect(run.report!.durationMs).toBeLessThan(1500 + 1000);
        // On a loaded machine the budget may already be spent before a check starts: either way the report says why.
        expect(run.report!.cutShort!.reason).toMatch(
          /--max-duration budget ends before the next request could be sent.*--max-rps 2 \(one request every 500 ms\)|--max-duration budget was used up/,
        );
        const stopped = run.report!.checks.filter((c) =>
          /^not (finished|run): the --max-duration budget/.test(c.message),
        );
        expect(stopped.length).toBeGreaterThan(0);
        expect(stopped.every((c) => c.status === 'skip')).toBe(true);
        // The report counts the checks skipped for budget, in the field and in the reason.
        expect(run.report!.cutShort!.checksSkipped).toBe(stopped.length);
        expect(run.report!.cutShort!.reason).toMatch(
          new RegExp(`: ${stopped.length} check\\(s\\) skipped for budget$`),
        );
        expect(run.report!.checks.filter((c) => c.status === 'fail' || c.status === 'error')).toEqual([]);
        expect(run.report!.stats.requests).toBeLessThanOrEqual(4);
      },
    );

    it('rejects a cap that is not a positive number', async () => {
      for (const bad of ['0', '-1', 'fast']) {
        const run = await runCli(['--max-rps', bad]);
        expect(run.code, bad).toBe(2);
        expect(run.stderr).toMatch(/--max-rps must be a positive number/);
      }
    });
  });
});
