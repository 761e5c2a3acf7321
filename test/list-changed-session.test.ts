import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, ROOT, runCli } from './helpers/cli.js';

/*
 * tools.listchanged.notify on the initialize revisions, where the session itself is told (no subscriptions/listen):
 * "When the list of available tools changes, servers that declared the listChanged capability SHOULD send a
 * notification". The SDK v1 fixture's toggle_beta enables or disables a second tool; McpServer then notifies, unless
 * --silent-list-changed keeps it quiet.
 */
const FIXTURE = join(ROOT, 'test/fixtures/sdk-v1-server.mjs');
const audit = (revision: string, ...flags: string[]) =>
  runCli(
    [
      '--stdio',
      [process.execPath, FIXTURE, '--toggle-tool', ...flags].join(' '),
      '--protocol-version',
      revision,
      '--list-changed-trigger',
      'toggle_beta',
      '--checks',
      'tools.listchanged.notify',
    ],
    { timeoutMs: 30_000 },
  );

describe.skipIf(!BUILT)('tools.listchanged.notify on the session of an initialize revision', () => {
  it('passes a server that notifies the session, quoting the revision it agreed', { timeout: 40_000 }, async () => {
    const report = (await audit('2024-11-05')).report!;
    const check = report.checks.find((c) => c.id === 'tools.listchanged.notify')!;
    expect(report.wire.protocolVersion).toBe('2024-11-05');
    expect(check).toMatchObject({
      status: 'pass',
      specUrl: 'https://modelcontextprotocol.io/specification/2024-11-05/server/tools#list-changed-notification',
    });
    expect(check.message).toMatch(/notified of the change \(added beta_echo\)/);
  });

  it(
    'warns, under the SHOULD of that revision, when the tool set changes without the notification',
    { timeout: 40_000 },
    async () => {
      const run = await audit('2025-06-18', '--silent-list-changed');
      const check = run.report!.checks.find((c) => c.id === 'tools.listchanged.notify')!;
      expect(check).toMatchObject({
        status: 'warn',
        keywordText: 'SHOULD',
        quote:
          'When the list of available tools changes, servers that declared the listChanged capability SHOULD ' +
          'send a notification:',
      });
      expect(check.message).toMatch(
        /the tool set changed \(added beta_echo\) but no notifications\/tools\/list_changed arrived on the session/,
      );
      expect(run.code).toBe(0);
    },
  );
});
