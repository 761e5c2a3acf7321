import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_CHANGED_TRIGGER_ARGS } from '../reference/server/defects/index.js';
import type { RunReport } from '../src/model/report.js';
import { SUBSCRIPTION_CHECKS } from '../suites/subscriptions/subscriptions.js';
import { INITIALIZE_REVISIONS } from '../src/core/revision.js';
import {
  BUILT,
  byStatus,
  explain,
  referenceCommand,
  runCli,
  runInProcess,
  startReferenceHttp,
  startReferenceHttpProcess,
  type CliRun,
} from './helpers/cli.js';

const SUBSCRIPTION_CHECK_IDS = SUBSCRIPTION_CHECKS.map((c) => c.id);
const subscriptionStatuses = (report: RunReport) =>
  report.checks.filter((c) => SUBSCRIPTION_CHECK_IDS.includes(c.id)).map((c) => [c.id, c.status]);

describe.skipIf(!BUILT)('the clean reference server passes every check', () => {
  it('over stdio: exit 0, no fail/warn/error, modern wire', async () => {
    // The bundled CLI in a process of its own, as users run it; the other audits here run in a warm one.
    const run = await runCli(['--stdio', referenceCommand()], { fresh: true });
    expect(explain(run.report)).toBe('(no fail/warn/error)');
    expect(run.code).toBe(0);
    expect(run.report!.wire.protocolVersion).toBe('2026-07-28');
    expect(run.report!.summary.pass).toBeGreaterThan(10);
    // Safe mode calls the read-only tools; a stdio server on Linux is offered the sandbox as the way to call the
    // others.
    const depth = run.report!.depth!;
    expect(depth.toolsListed).toBe(run.report!.stats.toolsListed!.length);
    expect(depth.toolsCalled).toBeGreaterThan(0);
    expect(depth.toolsCalled).toBeLessThan(depth.toolsListed);
    expect(depth.skippedForNoCallableTool).toBe(0);
    expect(depth.deeperWith).toBe('--sandbox');
    expect(depth.notReadOnly).toBeUndefined();
    expect(run.report!.stats.toolsNotAllowed).toContain('delete_note');
  });

  it('with no readOnlyHint on any tool: nothing is called, and the depth line counts the checks that skipped for it', async () => {
    const run = await runCli([
      '--stdio',
      referenceCommand('--defect', 'no-read-only-hints'),
      '--reporter',
      'console,json',
      '--runs',
      '5',
    ]);
    expect(explain(run.report)).toBe('(no fail/warn/error)');
    const starved = run.report!.checks.filter((c) => c.skippedFor === 'no-callable-tool');
    expect(starved.map((c) => c.status)).toEqual(starved.map(() => 'skip'));
    expect(starved.map((c) => c.id)).toEqual(
      expect.arrayContaining(['tools.err.tool-errors-in-result', 'tools.output.conform', 'mrtr.irr.non-empty']),
    );
    expect(run.report!.depth).toEqual({
      toolsListed: run.report!.stats.toolsListed!.length,
      toolsCalled: 0,
      skippedForNoCallableTool: new Set(starved.map((c) => c.id)).size,
      deeperWith: '--sandbox',
    });
    expect(run.stdout).toContain(
      `Depth: called 0 of ${run.report!.depth!.toolsListed} tools; ` +
        `${run.report!.depth!.skippedForNoCallableTool} checks skipped for want of a callable tool — --sandbox ` +
        `to go deeper safely`,
    );
  });

  it('with --list-changed-trigger, every subscription check passes (stdio)', async () => {
    const run = await runCli(['--stdio', referenceCommand(), ...LIST_CHANGED_TRIGGER_ARGS]);
    expect(explain(run.report)).toBe('(no fail/warn/error)');
    expect(subscriptionStatuses(run.report!)).toEqual(SUBSCRIPTION_CHECK_IDS.map((id) => [id, 'pass']));
    expect(run.report!.stats.toolsCalled.toggle_beta_tools).toBe(2);
  });

  it('--reference-server audits the embedded reference server', async () => {
    const run = await runCli(['--reference-server']);
    expect(run.code).toBe(0);
    expect(run.report!.target.transport).toBe('stdio');
    expect(run.report!.target.command).toContain('reference-server');
    expect(byStatus(run.report!, 'fail', 'warn', 'error')).toEqual([]);
  });

  describe('over Streamable HTTP', () => {
    let json: Awaited<ReturnType<typeof startReferenceHttpProcess>>;
    let sse: Awaited<ReturnType<typeof startReferenceHttpProcess>>;
    beforeAll(async () => {
      // The bundled server in processes of its own, as users start it (the other tests share one host of HTTP servers).
      [json, sse] = await Promise.all([startReferenceHttpProcess(), startReferenceHttpProcess('--sse')]);
    });
    afterAll(async () => {
      await Promise.all([json?.stop(), sse?.stop()]);
    });

    it('JSON responses: exit 0, no fail/warn/error', async () => {
      const run = await runCli(['--url', json.url]);
      expect(explain(run.report)).toBe('(no fail/warn/error)');
      expect(run.code).toBe(0);
      expect(run.report!.target).toEqual({ transport: 'http', url: json.url });
      expect(run.report!.wire.protocolVersion).toBe('2026-07-28');
    });

    it('with --list-changed-trigger, every subscription check passes and the tool set is restored', async () => {
      const run = await runCli(['--url', sse.url, ...LIST_CHANGED_TRIGGER_ARGS]);
      expect(explain(run.report)).toBe('(no fail/warn/error)');
      expect(subscriptionStatuses(run.report!)).toEqual(SUBSCRIPTION_CHECK_IDS.map((id) => [id, 'pass']));
      const again = await runCli(['--url', sse.url, '--checks', 'tools.list.*']);
      expect(explain(again.report)).toBe('(no fail/warn/error)');
    });

    it('without a trigger, the acknowledgement checks pass and the change checks skip with the flag to use', async () => {
      const run = await runCli(['--url', json.url, '--checks', 'subs.*', '--checks', 'tools.listchanged.*']);
      const statuses = Object.fromEntries(run.report!.checks.map((c) => [c.id, c]));
      expect(statuses['subs.ack.first']!.status).toBe('pass');
      expect(statuses['subs.ack.subset']!.status).toBe('pass');
      for (const id of ['tools.listchanged.notify', 'subs.no-unrequested']) {
        expect(statuses[id]!.status).toBe('skip');
        expect(statuses[id]!.message).toContain('--list-changed-trigger');
      }
    });

    it('SSE responses: exit 0, no fail/warn/error', async () => {
      const run = await runCli(['--url', sse.url]);
      expect(explain(run.report)).toBe('(no fail/warn/error)');
      expect(run.code).toBe(0);
    });

    it('never writes --header values into the report', async () => {
      const run = await runCli(['--url', json.url, '--header', 'Authorization: Bearer s3cr3t-t0ken-value']);
      expect(run.code).toBe(0);
      const text = JSON.stringify(run.report);
      expect(text).not.toContain('s3cr3t-t0ken-value');
      expect(text).toContain('[redacted]');
    });
  });
});

/** The batch checks of 2025-03-26 (the only checks of this revision alone), by transport. */
const BATCH_CHECKS = {
  stdio: ['base.batch.receive'],
  http: ['base.batch.receive', 'http.batch.notifications-202'],
} as const;
/**
 * 2024-11-05 tools carry no annotations, so nothing is read-only: the audit is allowed every tool (the reference ones
 * are harmless).
 */
const auditArgs = (revision: string): string[] => (revision === '2024-11-05' ? ['--allow-all-tools'] : []);

function expectCleanOn(run: Pick<CliRun, 'code' | 'report'>, revision: string, transport: 'stdio' | 'http'): void {
  expect(explain(run.report)).toBe('(no fail/warn/error)');
  expect(run.code).toBe(0);
  expect(run.report!.wire.protocolVersion).toBe(revision);
  const batches = run.report!.checks.filter((c) => c.id.includes('.batch.')).map((c) => [c.id, c.status]);
  const expected = revision === '2025-03-26' ? BATCH_CHECKS[transport] : [];
  expect(batches.filter(([, status]) => status === 'pass').map(([id]) => id)).toEqual(expected);
}

describe.skipIf(!BUILT)(
  'the clean reference server passes every check on each initialize revision (--protocol-version)',
  () => {
    it.concurrent.each(INITIALIZE_REVISIONS)(
      'started as %s, over stdio: agreed after the fallback, exit 0, no fail/warn/error',
      async (revision) => {
        const run = await runInProcess([
          '--stdio',
          referenceCommand('--protocol-version', revision),
          ...auditArgs(revision),
        ]);
        expectCleanOn(run, revision, 'stdio');
        expect(run.report!.wire.reason).toMatch(/server\/discover answered with error -32601.*fell back to initialize/);
        if (revision === '2025-11-25') {
          expect(run.report!.checks.find((c) => c.id === 'lifecycle.capabilities.negotiated')).toMatchObject({
            status: 'pass',
            message: 'the server sent the client no request',
          });
          expect(run.report!.summary.pass).toBeGreaterThan(30);
        }
      },
    );

    // 2024-11-05 speaks the deprecated HTTP+SSE transport, which the auditor finds behind the URL (issue 29 item 6).
    it.concurrent.each(INITIALIZE_REVISIONS)(
      'started as %s, over HTTP (one session per connection): exit 0, no fail/warn/error',
      async (revision) => {
        const server = await startReferenceHttp('--protocol-version', revision);
        try {
          const run = await runInProcess(['--url', server.url, ...auditArgs(revision)]);
          expectCleanOn(run, revision, 'http');
          expect(run.report!.target.transport).toBe(revision === '2024-11-05' ? 'http+sse' : 'http');
        } finally {
          await server.stop();
        }
      },
    );

    it.concurrent(
      'started as 2025-11-25 and offered an older revision, it agrees that one and answers as it: 2025-03-26 ' +
        'over HTTP, 2024-11-05 over stdio',
      async () => {
        const server = await startReferenceHttp('--sse', '--protocol-version', '2025-11-25');
        try {
          const run = await runInProcess(['--url', server.url, '--protocol-version', '2025-03-26']);
          expectCleanOn(run, '2025-03-26', 'http');
          expect(run.report!.wire.reason).toBe(
            '--protocol-version 2025-03-26 offered; initialize agreed protocol version 2025-03-26',
          );
        } finally {
          await server.stop();
        }
        const old = await runInProcess([
          '--stdio',
          referenceCommand('--protocol-version', '2025-11-25'),
          '--protocol-version',
          '2024-11-05',
          ...auditArgs('2024-11-05'),
        ]);
        expectCleanOn(old, '2024-11-05', 'stdio');
      },
    );
  },
);
