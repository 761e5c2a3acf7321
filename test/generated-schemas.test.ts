import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli } from './helpers/cli.js';

/*
 * Schemas as generators write them, which conform although a stricter reading would fail them (issue 28):
 * - pydantic writes `format: "date-time"` for a datetime field and the official Python SDK returns a naive
 *   `datetime.isoformat()`: `format` is an annotation in JSON Schema 2020-12, so the result conforms (a warning);
 * - a draft-07 `"enum": []` is valid under the official draft-07 meta-schema, whose text only says SHOULD (a warning).
 */
const command = (fixture: string, ...flags: string[]) =>
  [process.execPath, join(ROOT, 'test/fixtures', fixture), ...flags].join(' ');
const findings = (report: NonNullable<Awaited<ReturnType<typeof runCli>>['report']>) =>
  report.checks
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.status} ${c.id}${c.tool ? ` [${c.tool}]` : ''}`);

describe.skipIf(!BUILT)(
  'a pydantic-style datetime output (SDK v1 low-level Server answering as the Python SDK does)',
  () => {
    it(
      'a naive date-time under format "date-time" is a warning that names the format, the value and why, not a failure',
      { timeout: 60_000 },
      async () => {
        const run = await runCli(['--stdio', command('pydantic-datetime-server.mjs')], { timeoutMs: 50_000 });
        const report = run.report!;
        expect(findings(report), explain(report)).toEqual([
          'warn tools.err.unknown-tool',
          'warn tools.output.conform [next_event]',
        ]);
        const conform = report.checks.find((c) => c.id === 'tools.output.conform' && c.status === 'warn')!;
        expect(conform).toMatchObject({
          keyword: 'SHOULD',
          keywordText: 'descriptive',
          specRef: 'server/tools#output-schema',
        });
        expect(conform.quote).toMatch(
          /^Providing an output schema helps clients .* Enabling strict schema validation of responses$/,
        );
        expect(conform.message).toContain('/when "2026-01-01T10:00:00" is not a well-formed "date-time"');
        expect(conform.message).toMatch(/no time-zone offset/);
        expect(conform.message).toMatch(/`format` is an annotation/);
        expect(conform.evidence.length).toBeGreaterThan(0);
        expect(report.checks.find((c) => c.id === 'tools.output.conform.property')).toMatchObject({ status: 'pass' });
        expect(run.code).toBe(0);
      },
    );

    it(
      'a naive date-time only generated calls see is a warning of tools.output.conform.property, once',
      { timeout: 60_000 },
      async () => {
        const run = await runCli(
          ['--stdio', command('pydantic-datetime-server.mjs', '--local-arg'), '--checks', 'tools.output.*'],
          { timeoutMs: 50_000 },
        );
        const report = run.report!;
        expect(findings(report), explain(report)).toEqual(['warn tools.output.conform.property [next_event]']);
        const property = report.checks.find((c) => c.id === 'tools.output.conform.property' && c.status === 'warn')!;
        expect(property).toMatchObject({ keywordText: 'descriptive', specRef: 'server/tools#output-schema' });
        expect(property.message).toContain('/when "2026-01-01T10:00:00" is not a well-formed "date-time"');
        expect(report.checks.find((c) => c.id === 'tools.output.conform')).toMatchObject({ status: 'pass' });
        expect(run.code).toBe(0);
      },
    );

    it(
      'a value of the wrong type under the same schema still fails tools.output.conform',
      { timeout: 60_000 },
      async () => {
        const run = await runCli(
          ['--stdio', command('pydantic-datetime-server.mjs', '--broken-type'), '--checks', 'tools.output.*'],
          { timeoutMs: 50_000 },
        );
        const report = run.report!;
        expect(findings(report), explain(report)).toEqual(['fail tools.output.conform [next_event]']);
        const conform = report.checks.find((c) => c.id === 'tools.output.conform' && c.status === 'fail')!;
        expect(conform).toMatchObject({
          keyword: 'MUST',
          quote: 'Servers MUST provide structured results that conform to this schema.',
        });
        expect(conform.message).toMatch(/\/when must be string/);
        expect(run.code).not.toBe(0);
      },
    );
  },
);

describe.skipIf(!BUILT)(
  'an "enum": [] in a draft-07 inputSchema (SDK v1 low-level Server, zod-to-json-schema style)',
  () => {
    it(
      'is no jsonschema.valid.input failure but a warning quoting the SHOULD, and a tool no call can satisfy ' +
        'is skipped with the reason',
      { timeout: 60_000 },
      async () => {
        const run = await runCli(['--stdio', command('empty-enum-server.mjs')], { timeoutMs: 50_000 });
        const report = run.report!;
        expect(findings(report), explain(report)).toEqual([
          'warn jsonschema.valid.input [get_component_docs]',
          'warn jsonschema.valid.input [get_component_source]',
          'warn jsonschema.dialect.recommended',
          'warn tools.err.unknown-tool',
        ]);
        for (const valid of report.checks.filter((c) => c.id === 'jsonschema.valid.input')) {
          expect(valid).toMatchObject({
            keywordText: 'descriptive',
            quote: 'The Model Context Protocol uses JSON Schema for validation throughout the protocol.',
          });
          expect(valid.message).toContain('/properties/component/enum is empty');
          expect(valid.message).toContain(
            'JSON Schema draft-07, on enum: "This array SHOULD have at least one element. Elements in the ' +
              'array SHOULD be unique."',
          );
        }
        const unsatisfiable = report.checks.filter(
          (c) => c.tool === 'get_component_source' && c.id.endsWith('.property'),
        );
        expect(unsatisfiable.length).toBeGreaterThan(0);
        for (const check of unsatisfiable) {
          expect(check).toMatchObject({ status: 'skip' });
          expect(check.message).toMatch(
            /the enum at \/properties\/component\/enum is empty, so no value is valid there/,
          );
        }
        expect(report.checks.find((c) => c.id === 'tools.err.execution-errors')).toMatchObject({ status: 'pass' });
        expect(run.code).toBe(0);
      },
    );
  },
);
