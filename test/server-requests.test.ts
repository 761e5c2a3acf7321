import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli, startHttpServer } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test/fixtures/sdk-v1-roots-server.mjs');

/**
 * mcp-shrimp-task-manager asks the client for its roots while it builds its tools/list answer, and waits: an audit that
 * never answered was cut short ("the target stopped answering", exit 3). The fixture is written the same way.
 */
describe.skipIf(!BUILT)(
  'a server that asks the client something while it builds its tools/list answer (SDK v1, stdio)',
  () => {
    it('roots/list: answered with no roots, and the audit runs to the end without a finding', async () => {
      const run = await runCli(['--stdio', `${process.execPath} ${FIXTURE}`], { timeoutMs: 60_000 });
      const report = run.report!;
      expect(report.wire.protocolVersion).toBe('2025-11-25');
      expect(explain(report)).toBe('(no fail/warn/error)');
      expect(run.code).toBe(0);
      const negotiated = report.checks.find((c) => c.id === 'lifecycle.capabilities.negotiated')!;
      expect(negotiated).toMatchObject({
        status: 'pass',
        message: expect.stringMatching(
          /^\d+ request\(s\) from the server \(roots\/list\) needed no client capability beyond those declared: \{"roots":\{\}\}$/,
        ),
      });
      expect(negotiated.evidence[0]).toMatchObject({
        data: { request: { method: 'roots/list' }, answer: { result: { roots: [] } } },
      });
      expect(report.stats.toolsCalled.list_tasks).toBeGreaterThan(0);
      // The initialize request declared roots, which is why the server may ask for them.
      const initialize = report.checks.find((c) => c.id === 'tools.cap.declare')!.evidence[0] as {
        request: { params: { capabilities: unknown } };
      };
      expect(initialize.request.params.capabilities).toEqual({ roots: {} });
    });

    it('ping: answered with {}, and the audit runs to the end without a finding', async () => {
      const run = await runCli(['--stdio', `${process.execPath} ${FIXTURE} --ping`], { timeoutMs: 60_000 });
      expect(explain(run.report)).toBe('(no fail/warn/error)');
      expect(run.code).toBe(0);
      const negotiated = run.report!.checks.find((c) => c.id === 'lifecycle.capabilities.negotiated')!;
      expect(negotiated.message).toMatch(/request\(s\) from the server \(ping\)/);
      expect(negotiated.evidence[0]).toMatchObject({ data: { request: { method: 'ping' }, answer: { result: {} } } });
    });
  },
);

describe.skipIf(!BUILT)('the same server over Streamable HTTP (SDK v1, sessions)', () => {
  it(
    "roots/list, sent on the session's GET stream (the SDK ties it to no request of ours): answered with a " +
      'POST, and the audit runs to the end',
    { timeout: 60_000 },
    async () => {
      const server = await startHttpServer(FIXTURE, '--http');
      try {
        const run = await runCli(['--url', server.url], { timeoutMs: 45_000 });
        expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
        expect(explain(run.report)).toBe('(no fail/warn/error)');
        expect(run.code).toBe(0);
        const negotiated = run.report!.checks.find((c) => c.id === 'lifecycle.capabilities.negotiated')!;
        expect(negotiated.evidence[0]).toMatchObject({
          data: { request: { method: 'roots/list' }, answer: { result: { roots: [] } } },
        });
      } finally {
        await server.stop();
      }
    },
  );
});
