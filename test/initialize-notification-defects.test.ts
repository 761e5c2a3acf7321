import { describe, expect, it } from 'vitest';
import { BUILT, explain, referenceCommand, runCli } from './helpers/cli.js';

/**
 * Two defects of the reference server, started on 2025-11-25, prove what the initialize revisions' own sentences make
 * of them: a server's notifications/cancelled for the client's call breaks "Cancellation notifications MUST only
 * reference requests that: Were previously issued in the same direction", and progress that does not increase breaks
 * the progress page's MUST (before, only schema.json's lower-case "should" was quoted, and it warned).
 */
describe.skipIf(!BUILT)('notification defects on the initialize wire (2025-11-25, stdio)', () => {
  it.concurrent.each([
    ['cancel-call-notification', 'cancel.server.no-other', /not a request the server had sent the client/],
    ['progress-not-increasing', 'progress.increase', /went 1 → 1/],
  ])("%s fails %s alone, under the initialize revision's MUST", async (defect, check, message) => {
    const run = await runCli(['--stdio', referenceCommand('--protocol-version', '2025-11-25', '--defect', defect)]);
    const report = run.report!;
    expect(report.wire.protocolVersion).toBe('2025-11-25');
    expect(
      report.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => `${c.status} ${c.id}`),
      explain(report),
    ).toEqual([`fail ${check}`]);
    const hit = report.checks.find((c) => c.id === check)!;
    expect(hit).toMatchObject({
      keywordText: 'MUST',
      specUrl: expect.stringMatching(
        /^https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\/basic\/utilities\//,
      ),
    });
    expect(hit.message).toMatch(message);
    expect(run.code).toBe(1);
  });
});
