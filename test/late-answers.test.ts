import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli } from './helpers/cli.js';

const unreadable = (mode: string) =>
  `${process.execPath} ${join(ROOT, 'test/fixtures/unreadable-stdout-server.mjs')} ${mode}`;

// Our settings are never the target's fault: an answer after --timeout is late, not missing.
describe.skipIf(!BUILT).concurrent('answers after --timeout, timers and stdout that is not JSON-RPC', () => {
  it('--timeout 30 on the reference server: its start-up makes server/discover late, a skip and never a fail; the run starts with a notice', async () => {
    const run = await runCli(['--reference-server', '--timeout', '30', '--checks', 'discover.must-implement']);
    const report = run.report!;
    expect(report.wire.protocolVersion, explain(report)).toBe('2026-07-28');
    expect(report.wire.reason).toMatch(
      /^server\/discover returned a DiscoverResult, \d+ ms after it was sent \(late for the 30 ms it was given, so that is not judged\)$/,
    );
    const discover = report.checks.find((c) => c.id === 'discover.must-implement')!;
    expect(discover.status).toBe('skip');
    expect(discover.message).toMatch(
      /^answered after \d+ ms, above the 30 ms it was given: late, not missing, so not judged/,
    );
    expect(report.summary.fail + report.summary.error).toBe(0);
    expect(run.stderr).toMatch(/note: --timeout 30 is under 100 ms/);
    expect(run.code).toBe(0);
  });

  for (const flag of ['--timeout', '--max-duration']) {
    it(`${flag} of 2^31 ms or more, which Node's timers would fire after 1 ms, is a usage error naming the maximum`, async () => {
      const run = await runCli(['--reference-server', flag, String(2 ** 31)]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        `mcp-tools-conformance: ${flag} must be at most 2147483647 ms (about 24.8 days), the longest a timer ` +
          `can wait (see --help)`,
      ]);
    });
  }

  for (const [mode, line] of [
    ['hello', 'hello world, I am a friendly server and I do'],
    ['garbage', '{"jsonrpc":"2.0","id":1,"result":{garbage}'],
  ] as const) {
    it(`a server that answers only with lines that are not JSON-RPC (${mode}): exit 3 at once, the reason quoting the line`, async () => {
      const run = await runCli(['--stdio', unreadable(mode), '--timeout', '20000']);
      expect(run.code).toBe(3);
      const reason = run.report!.aborted!.reason;
      expect(reason).toContain(
        `server/discover got no usable answer (the target wrote 1 line that is not JSON-RPC: \`${line}`,
      );
      expect(reason).toMatch(/initialize: the target wrote 2 lines that are not JSON-RPC/);
      expect(run.stderr.split('\n')[0]).toContain(line);
      // Two probes, each ended half a second after the line that answered it, not after --timeout (20 s) each: about
      // 1.5 s on a quiet machine, with room here for a loaded one.
      expect(run.wallMs).toBeLessThan(10_000);
    });
  }
});
