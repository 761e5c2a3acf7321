import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli } from './helpers/cli.js';

/*
 * The conforming side of two verdicts (issue 17):
 * - an unknown tool answered with an isError result, as the SDK v1 McpServer does, is a warning (server/tools § Error
 *   Handling only describes a JSON-RPC error; schema.json's isError description says "should" in lower case);
 * - arguments that break the inputSchema, refused with -32603 rather than an isError result, are still refused: the
 *   sentence behind the check is "Servers MUST: Validate all tool inputs", which names no way of reporting the refusal.
 */
const FIXTURE = join(ROOT, 'test/fixtures/sdk-v1-server.mjs');
const command = (...flags: string[]) => [process.execPath, FIXTURE, ...flags].join(' ');
const findings = (report: NonNullable<Awaited<ReturnType<typeof runCli>>['report']>) =>
  report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.status} ${c.id}`);

describe.skipIf(!BUILT)('a server on the official SDK v1 McpServer (2025-11-25, stdio)', () => {
  it(
    'answers an unknown tool with isError and gets a warning labelled descriptive, not a failure: exit code 0',
    { timeout: 60_000 },
    async () => {
      const run = await runCli(['--stdio', command()], { timeoutMs: 50_000 });
      const report = run.report!;
      expect(report.wire.protocolVersion).toBe('2025-11-25');
      expect(findings(report), explain(report)).toEqual([
        'warn jsonschema.dialect.recommended',
        'warn tools.err.unknown-tool',
      ]);
      const unknown = report.checks.find((c) => c.id === 'tools.err.unknown-tool')!;
      expect(unknown).toMatchObject({
        keyword: 'SHOULD',
        keywordText: 'descriptive',
        specRef: 'server/tools#error-handling',
      });
      expect(unknown.message).toMatch(/got a result with isError: true/);
      expect(unknown.message).toMatch(/many SDKs \(e\.g\. the official TypeScript SDK v1 McpServer\) answer this way/);
      expect(unknown.message).toMatch(/does not require one with a BCP 14 keyword/);
      expect(unknown.evidence.length).toBeGreaterThan(0);
      expect(run.code).toBe(0);
    },
  );

  it(
    'refusing schema-invalid arguments with -32603 passes tools.err.execution-errors and its property check, ' +
      'noting the code',
    { timeout: 60_000 },
    async () => {
      const run = await runCli(['--stdio', command('--invalid-args-internal-error')], { timeoutMs: 50_000 });
      const report = run.report!;
      for (const id of ['tools.err.execution-errors', 'tools.err.execution-errors.property']) {
        const check = report.checks.find((c) => c.id === id)!;
        expect(check.status, `${id}: ${check.message}`).toBe('pass');
        expect(check.message).toMatch(/answered with a JSON-RPC error instead of an isError result: -32603/);
      }
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(run.code).toBe(0);
    },
  );
});
