import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, byStatus, explain, referenceCommand, runCli, startReferenceHttp } from './helpers/cli.js';

describe.skipIf(!BUILT)('the clean reference server passes every check', () => {
  it('over stdio: exit 0, no fail/warn/error, modern wire', async () => {
    const run = await runCli(['--stdio', referenceCommand()]);
    expect(explain(run.report)).toBe('(no fail/warn/error)');
    expect(run.code).toBe(0);
    expect(run.report!.wire.protocolVersion).toBe('2026-07-28');
    expect(run.report!.summary.pass).toBeGreaterThan(10);
  });

  it('with no target at all, audits the embedded reference server', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(0);
    expect(run.report!.target.transport).toBe('stdio');
    expect(run.report!.target.command).toContain('reference-server');
    expect(byStatus(run.report!, 'fail', 'warn', 'error')).toEqual([]);
  });

  describe('over Streamable HTTP', () => {
    let json: Awaited<ReturnType<typeof startReferenceHttp>>;
    let sse: Awaited<ReturnType<typeof startReferenceHttp>>;
    beforeAll(async () => {
      [json, sse] = await Promise.all([startReferenceHttp(), startReferenceHttp('--sse')]);
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
