import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVISIONS } from '../core/revision.js';
import { createJsonReporter, JSON_REPORT_FILE } from './json.js';
import { HOSTILE_TEXT, LIST_EXCHANGE, RUN_REPORT } from './run-report.fixture.js';
import { KEYWORD_LABELS, KEYWORDS, STATUSES } from './statuses.js';
import type { RunReport } from '../model/report.js';

const SCHEMA_PATH = fileURLToPath(new URL('../../data/report.schema.json', import.meta.url));

let schema: Record<string, unknown> & { $defs: Record<string, { enum?: unknown[] }> };
let validate: (data: unknown) => boolean;
let errorsText: () => string;
let dir: string;

beforeAll(async () => {
  schema = JSON.parse(await readFile(SCHEMA_PATH, 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const compiled = ajv.compile(schema);
  validate = (data) => compiled(data);
  errorsText = () => ajv.errorsText(compiled.errors);
  dir = await mkdtemp(join(tmpdir(), 'report-json-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeReport(report: RunReport, outputDir: string): Promise<{ path: string; text: string }> {
  const path = await createJsonReporter().finish(report, outputDir);
  expect(path).toBe(join(outputDir, JSON_REPORT_FILE));
  return { path: path ?? '', text: await readFile(path ?? '', 'utf8') };
}

describe('json reporter', () => {
  it('creates the folder, writes pretty JSON that validates and round-trips', async () => {
    const { text } = await writeReport(RUN_REPORT, join(dir, 'nested', 'out'));
    expect(text).toMatch(/^\{\n {2}"tool": \{\n {4}"name"/);
    const parsed: unknown = JSON.parse(text);
    expect(validate(parsed), errorsText()).toBe(true);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(RUN_REPORT)));
    const failing = (parsed as RunReport).checks.find((check) => check.status === 'fail');
    expect(failing?.message.endsWith(HOSTILE_TEXT)).toBe(true);
  });

  it('bounds large evidence and the result still validates', async () => {
    const evidence = Array.from({ length: 25 }, (_, i) => ({ ...LIST_EXCHANGE, seq: i, rawBody: 'b'.repeat(70_000) }));
    const [first] = RUN_REPORT.checks;
    if (first === undefined) throw new Error('fixture has no checks');
    const report: RunReport = { ...RUN_REPORT, checks: [{ ...first, evidence, message: 'm'.repeat(100_000) }] };
    const { text } = await writeReport(report, join(dir, 'big'));
    const parsed = JSON.parse(text) as RunReport;
    expect(validate(parsed), errorsText()).toBe(true);
    const check = parsed.checks[0];
    expect(check?.evidence).toHaveLength(21);
    expect(check?.evidence[20]).toMatchObject({ data: { dropped: 5 } });
    expect((check?.evidence[0] as { rawBody: string }).rawBody).toMatch(/…\[truncated 4464 chars\]$/);
    expect(check?.message).toMatch(/…\[truncated 34464 chars\]$/);
  });
});

describe('report.schema.json', () => {
  it('enumerates exactly our statuses, keywords and wires', () => {
    expect(schema.$defs.status?.enum).toEqual(STATUSES);
    expect(schema.$defs.keyword?.enum).toEqual(KEYWORDS);
    expect((schema.$defs as unknown as { keywordLabel: { enum: unknown[] } }).keywordLabel.enum).toEqual(
      KEYWORD_LABELS,
    );
    const run = (
      schema.$defs as unknown as {
        runReport: { properties: { wire: { properties: { protocolVersion: { enum: unknown[] } } } } };
      }
    ).runReport;
    expect(run.properties.wire.properties.protocolVersion.enum).toEqual([...REVISIONS, null]);
    expect((schema.$defs as unknown as { revision: { enum: unknown[] } }).revision.enum).toEqual(REVISIONS);
  });

  it('takes the depth of an audit, the listing it rests on, and the skips for want of a callable tool', () => {
    const base = JSON.parse(JSON.stringify(RUN_REPORT)) as Record<string, unknown> & {
      stats: Record<string, unknown>;
      checks: Record<string, unknown>[];
    };
    const deep = {
      ...base,
      stats: { ...base.stats, toolsListed: ['echo', 'slow', 'write'], toolsNotAllowed: ['write'] },
      depth: { toolsListed: 3, toolsCalled: 2, skippedForNoCallableTool: 1, deeperWith: '--allow-tools write' },
      checks: [{ ...base.checks[0], status: 'skip', skippedFor: 'no-callable-tool' }],
    };
    expect(validate(deep), errorsText()).toBe(true);
    expect(validate({ ...deep, depth: { toolsListed: 3, toolsCalled: 2 } })).toBe(false);
    expect(validate({ ...deep, depth: { ...deep.depth, toolsCalled: -1 } })).toBe(false);
    expect(validate({ ...deep, checks: [{ ...deep.checks[0], skippedFor: 'budget' }] })).toBe(false);
  });

  it('rejects unknown properties, unknown statuses and malformed evidence', () => {
    const base = JSON.parse(JSON.stringify(RUN_REPORT)) as Record<string, unknown> & {
      checks: Record<string, unknown>[];
    };
    expect(validate({ ...base, extra: 1 })).toBe(false);
    expect(validate({ ...base, checks: [{ ...base.checks[0], status: 'ok' }] })).toBe(false);
    expect(validate({ ...base, checks: [{ ...base.checks[0], surprise: true }] })).toBe(false);
    expect(validate({ ...base, checks: [{ ...base.checks[0], evidence: [{ seq: 1 }] }] })).toBe(false);
    expect(validate({ ...base, summary: { pass: 1 } })).toBe(false);
    expect(validate({ ...base, startedAt: 'yesterday' })).toBe(false);
  });
});
