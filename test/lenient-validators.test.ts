import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli } from './helpers/cli.js';

/*
 * tools.err.execution-errors and its property-based counterpart on validators looser than their inputSchema, as the
 * census of npm servers met them (issue 28). "Servers MUST: Validate all tool inputs" fails only a value used
 * unchecked; what a looser validator explains is a warning resting on a descriptive sentence; an isError answer counts
 * as a refusal only when a schema-valid call of the tool does not fail the same way.
 */
const FIXTURE = join(ROOT, 'test/fixtures/lenient-validators-server.mjs');

describe.skipIf(!BUILT)('loose validators (SDK v1 low-level Server, zod and hand-written checks, stdio)', () => {
  it(
    'warns for what a looser validator explains, fails only a value used unchecked, and leaves "fetch failed" unjudged',
    { timeout: 60_000 },
    async () => {
      const run = await runCli(
        ['--stdio', `${process.execPath} ${FIXTURE}`, '--checks', 'tools.err.execution-errors*'],
        { timeoutMs: 50_000 },
      );
      const report = run.report!;
      const of = (id: string, tool: string) => report.checks.filter((c) => c.id === id && c.tool === tool);
      const findings = report.checks
        .filter((c) => c.status === 'fail' || c.status === 'warn')
        .map((c) => `${c.status} ${c.id} ${c.tool}`);
      expect(findings.sort(), explain(report)).toEqual(
        [
          'fail tools.err.execution-errors get_project',
          'warn tools.err.execution-errors.property read_file',
          'warn tools.err.execution-errors.property search_notes',
          'warn tools.err.execution-errors.property set_page_size',
          'warn tools.err.execution-errors.property set_page_size',
        ].sort(),
      );

      // desktop-commander: the unexpected property is dropped and the answer says so.
      const [ignored] = of('tools.err.execution-errors.property', 'read_file');
      expect(ignored).toMatchObject({ keywordText: 'descriptive', specRef: 'server/tools#error-handling' });
      expect(ignored!.message).toMatch(
        /undeclared property "unexpectedProperty" added: accepted, and the answer says .*which were ignored: unexpectedProperty/,
      );

      // z.coerce.number().int().min(1): only values that convert are accepted, and that is what the warning says,
      // naming each coercion the search saw (a boolean and a numeric string), not only the smallest case.
      const coerced = of('tools.err.execution-errors.property', 'set_page_size').find((c) =>
        /converts to its declared type/.test(c.message),
      )!;
      expect(coerced).toMatchObject({
        keywordText: 'descriptive',
        specRef: 'server/tools#tool',
        quote: 'inputSchema: JSON Schema defining expected parameters',
      });
      expect(coerced.message).toMatch(
        /^2 values of the wrong type were accepted, as a validator that coerces types does .*: "size" set to (true|false), a value of the wrong type that converts to its declared type \(integer\); "size" set to "\d+", a value of the wrong type that converts/,
      );
      expect(coerced.evidence.filter((e) => (e as { note?: string }).note === 'arguments sent')).toHaveLength(2);

      // `args.limit != null && …`: null for an optional property is read as "not given".
      expect(of('tools.err.execution-errors.property', 'search_notes')[0]!.message).toMatch(
        /optional "limit" set to null: accepted/,
      );

      // z.coerce.string() turns anything into a string: the scripted probe is a value no coercion explains.
      const [unchecked] = of('tools.err.execution-errors', 'get_project').filter((c) => c.status === 'fail');
      expect(unchecked).toMatchObject({ keyword: 'MUST', specRef: 'server/tools#security-considerations' });
      expect(unchecked!.message).toMatch(
        /"project_id" set to (\[\]|\{\}), a value of the wrong type: the call succeeded/,
      );

      // Every call of get_forecast fails with "fetch failed", valid or not: no verdict, and it is not in either pass.
      for (const id of ['tools.err.execution-errors', 'tools.err.execution-errors.property']) {
        const [unjudged] = of(id, 'get_forecast');
        expect(unjudged?.status, id).toBe('skip');
        expect(unjudged!.message).toMatch(/a schema-valid call of the tool fails the same way \("fetch failed"\)/);
      }
      const searchPass = report.checks.find(
        (c) => c.id === 'tools.err.execution-errors.property' && c.status === 'pass',
      )!;
      expect(searchPass.message).toMatch(/over 3 tool\(s\) were refused/);
      expect(run.code).toBe(1);
    },
  );
});

const hasPythonSdk = spawnSync('python3', ['-c', 'import mcp.server.mcpserver']).status === 0;

describe.skipIf(!BUILT || !hasPythonSdk)("pydantic's lax mode (the official Python SDK, mcp 2.3, stdio)", () => {
  it('add(a: int, b: int) takes true and "-5": the warning names both coercions', { timeout: 60_000 }, async () => {
    const run = await runCli(
      [
        '--stdio',
        `python3 ${join(ROOT, 'test/fixtures/python/mcpserver_app.py')} stdio`,
        '--checks',
        'tools.err.execution-errors.property',
      ],
      { timeoutMs: 50_000 },
    );
    const add = run.report!.checks.find((c) => c.id === 'tools.err.execution-errors.property' && c.tool === 'add')!;
    expect(add.status, explain(run.report)).toBe('warn');
    expect(add.message).toMatch(/^\d+ values of the wrong type were accepted, as a validator that coerces types does/);
    expect(add.message).toMatch(
      /set to (true|false), a value of the wrong type that converts to its declared type \(integer\)/,
    );
    expect(add.message).toMatch(
      /set to "-?\d+", a value of the wrong type that converts to its declared type \(integer\)/,
    );
    expect(run.code).toBe(0);
  });
});
