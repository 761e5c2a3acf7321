import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv04 from 'ajv-draft-04';
import { parse as parseJunit } from 'junit2json';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellOf } from '../src/engine/revisions.js';
import { revisionsOf } from '../src/model/check.js';
import { auditedRuns, type RevisionsReport } from '../src/model/report.js';
import { REVISIONS } from '../src/core/revision.js';
import { ALL_CHECKS } from '../suites/index.js';
import { BUILT, ROOT, referenceCommand, runCli, startReferenceHttp, type CliRun } from './helpers/cli.js';
import { sharedPath } from './helpers/shared.js';

const SDK_V1 = `${process.execPath} ${join(ROOT, 'test/fixtures/sdk-v1-server.mjs')}`;
const EVERY_FORMAT = 'console,json,junit,sarif,markdown,html';
/** The initialize revisions the SDK v1 server agrees when offered; it has no server/discover. */
const SDK_V1_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const JUNIT_XSD = sharedPath('formats/junit-10.xsd');
const SARIF_SCHEMA = sharedPath('formats/sarif-schema-2.1.0.json');
const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const xsdSkip = !HAVE_XMLLINT
  ? 'xmllint is not on PATH (install libxml2-utils)'
  : !existsSync(JUNIT_XSD)
    ? `${JUNIT_XSD} is missing (../shared absent)`
    : undefined;
if (xsdSkip) console.warn(`--revisions JUnit XSD test skipped: ${xsdSkip}`);
if (!existsSync(SARIF_SCHEMA)) console.warn(`--revisions SARIF schema test skipped: ${SARIF_SCHEMA} is absent`);

const revisionsReport = (run: CliRun) => run.report as unknown as RevisionsReport;

describe.skipIf(!BUILT)('--revisions all against the SDK v1 server fixture, every report format', () => {
  let run: CliRun;
  let report: RevisionsReport;
  const file = (name: string) => readFileSync(join(run.outputDir, name), 'utf8');

  beforeAll(async () => {
    run = await runCli(['--stdio', SDK_V1, '--revisions', 'all', '--reporter', EVERY_FORMAT], { timeoutMs: 150_000 });
    report = revisionsReport(run);
  }, 160_000);

  it('audits each revision the server agrees on a process of its own, and reports 2026-07-28 as not supported, with what it answered', () => {
    expect(report.revisions.map((e) => [e.revision, e.status])).toEqual([
      ['2026-07-28', 'not-supported'],
      ...SDK_V1_REVISIONS.map((r) => [r, 'audited']),
    ]);
    expect(report.revisions[0]).toMatchObject({
      reason: expect.stringMatching(/^server\/discover answered with error -32601 /),
    });
    for (const { revision, run: audited } of auditedRuns(report)) {
      expect(audited.wire).toEqual({
        protocolVersion: revision,
        reason: `--revisions: initialize agreed protocol version ${revision}`,
      });
      // Each run is judged, quoted and linked on its own revision.
      // (schema.json rules link the schema page from 2025-06-18, the schema file on GitHub before it.)
      for (const check of audited.checks)
        expect(check.specUrl, `${revision} ${check.id}`).toMatch(new RegExp(`/(specification|schema)/${revision}/`));
    }
    const codes = auditedRuns(report).map(({ run: r }) => r.exitCode);
    expect(run.code).toBe(codes.includes(3) ? 3 : codes.includes(1) ? 1 : 0);
    expect(report.exitCode).toBe(run.code);
  });

  it('report.json: a matrix row per check, a cell per audited revision, n/a exactly where the check has no sentence of that revision', () => {
    expect(report.matrix.map((row) => row.id)).toEqual(ALL_CHECKS.map((check) => check.id));
    for (const row of report.matrix) {
      const check = ALL_CHECKS.find((c) => c.id === row.id)!;
      expect(Object.keys(row.cells), row.id).toEqual(SDK_V1_REVISIONS);
      for (const { revision, run: audited } of auditedRuns(report)) {
        const expected = revisionsOf(check).includes(revision)
          ? cellOf(audited.checks.filter((c) => c.id === row.id))
          : 'n/a';
        expect(row.cells[revision], `${row.id} on ${revision}`).toBe(expected);
      }
    }
  });

  it('console: a heading per revision, the revision not supported and why, then the matrix with a column per revision', () => {
    for (const revision of REVISIONS) expect(run.stdout).toContain(`\nRevision ${revision}\n`);
    expect(run.stdout).toMatch(
      /Revision 2026-07-28\n {2}not supported, not audited: server\/discover answered with error -32601/,
    );
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((line) =>
      /^ {2}check +2026-07-28 {2}2025-11-25 {2}2025-06-18 {2}2025-03-26 {2}2024-11-05$/.test(line),
    );
    expect(header).toBeGreaterThan(0);
    const decided = report.matrix.filter((row) =>
      Object.values(row.cells).some((cell) => cell !== 'skip' && cell !== 'n/a'),
    );
    expect(decided.length).toBeGreaterThan(0);
    const rows = lines.slice(header + 1, header + 1 + decided.length);
    for (const [index, row] of decided.entries()) {
      expect(rows[index]!.trim().split(/\s+/), row.id).toEqual([
        row.id,
        '—',
        ...SDK_V1_REVISIONS.map((r) => row.cells[r]),
      ]);
    }
    expect(lines[header + 1 + decided.length]).toContain(
      `… and ${report.matrix.length - decided.length} more check(s) decided on no revision`,
    );
    expect(run.stdout).toMatch(/Revisions: 5 asked, 4 audited\n {2}2026-07-28 {2}not supported: /);
  });

  it('Markdown: the same matrix, each status linked to its outcome in report.html', () => {
    const markdown = file('summary.md');
    expect(markdown).toContain(`| Check | ${REVISIONS.join(' | ')} |`);
    const decided = report.matrix.filter((row) =>
      Object.values(row.cells).some((cell) => cell !== 'skip' && cell !== 'n/a'),
    );
    for (const row of decided) {
      const cells = SDK_V1_REVISIONS.map((r) =>
        row.cells[r] === 'n/a' ? 'n/a' : `[${row.cells[r]}](report.html#${r}-check-${row.id})`,
      );
      expect(markdown, row.id).toContain(`| \`${row.id}\` | — | ${cells.join(' | ')} |`);
    }
    expect(markdown).toMatch(/\| 2026-07-28 \| not supported: server\/discover answered with error -32601/);
  });

  it('JUnit: one testsuite per revision, the one not supported a single skipped case', async () => {
    const junit = await parseJunit(file('junit.xml'));
    const suites = junit?.testsuite ?? [];
    expect(suites.map((suite) => suite.name)).toEqual([...REVISIONS]);
    expect(suites[0]).toMatchObject({ tests: 1, skipped: 1 });
    expect(suites[0]!.testcase?.[0]?.skipped?.[0]?.message).toMatch(
      /^revision 2026-07-28 not supported by the target: server\/discover answered/,
    );
    for (const [index, { revision, run: audited }] of auditedRuns(report).entries()) {
      const suite = suites[index + 1]!;
      expect(suite.tests, revision).toBe(audited.checks.length);
      expect(new Set(suite.testcase?.map((c) => c.classname.split('.')[0])), revision).toEqual(new Set([revision]));
    }
    expect(junit?.tests).toBe(1 + auditedRuns(report).reduce((sum, { run: r }) => sum + r.checks.length, 0));
  });

  it.skipIf(xsdSkip !== undefined)(`JUnit: valid under junit-10.xsd ${xsdSkip ? `(SKIPPED: ${xsdSkip})` : ''}`, () => {
    expect(() =>
      execFileSync('xmllint', ['--noout', '--schema', JUNIT_XSD, join(run.outputDir, 'junit.xml')], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it.skipIf(!existsSync(SARIF_SCHEMA))(
    'SARIF: one run per revision, each its own code-scanning category, valid against the SARIF 2.1.0 schema',
    () => {
      const sarif = JSON.parse(file('report.sarif'));
      const ajv = new Ajv04.default({ allErrors: true, strict: false, validateFormats: false });
      const validate = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')));
      expect(validate(sarif), ajv.errorsText(validate.errors)).toBe(true);
      expect(sarif.runs.map((r: { automationDetails: { id: string } }) => r.automationDetails.id)).toEqual(
        REVISIONS.map((w) => `mcp-tools-conformance/${w}/`),
      );
      expect(sarif.runs[0].results).toEqual([]);
      expect(sarif.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toMatch(
        /^revision 2026-07-28 not supported by the target/,
      );
      for (const [index, { revision, run: audited }] of auditedRuns(report).entries()) {
        const findings = audited.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
        expect(
          sarif.runs[index + 1].results.map((r: { ruleId: string }) => r.ruleId),
          revision,
        ).toEqual(findings.map((c) => c.id));
        expect(sarif.runs[index + 1].properties.wire.protocolVersion).toBe(revision);
      }
    },
  );

  it("HTML: the matrix and every revision's outcomes on one page (the browser test opens it)", () => {
    const html = file('report.html');
    expect(html).toContain('<table id="revision-matrix">');
    for (const revision of SDK_V1_REVISIONS)
      expect(html).toContain(`<section class="revision" id="revision-${revision}"`);
    expect(html).not.toContain('id="revision-2026-07-28"');
  });
});

describe.skipIf(!BUILT)('--revisions: exit codes and baselines', () => {
  // The reference server speaks 2026-07-28 only: every initialize revision is refused (an error answer).
  const defective = referenceCommand('--defect', 'negative-ttl');

  it('a revision not supported changes nothing; a failing run fails the command', async () => {
    const run = await runCli(['--stdio', defective, '--revisions', '2026-07-28,2024-11-05', '--checks', 'cache.*']);
    const report = revisionsReport(run);
    expect(report.revisions.map((e) => [e.revision, e.status])).toEqual([
      ['2026-07-28', 'audited'],
      ['2024-11-05', 'not-supported'],
    ]);
    expect(report.revisions[1]).toMatchObject({ reason: expect.stringMatching(/^initialize answered error -?\d+: /) });
    expect(run.code).toBe(1);
    expect(report).toMatchObject({ verdict: 'fail', exitCode: 1 });
    expect(report.matrix.find((row) => row.id === 'cache.server.ttl-nonneg')!.cells).toEqual({ '2026-07-28': 'fail' });
  });

  it('over HTTP too, each revision on a connection of its own; no --header value reaches any format', async () => {
    const server = await startReferenceHttp();
    try {
      const run = await runCli([
        '--url',
        server.url,
        '--header',
        'Authorization: Bearer rev-s3cr3t-t0ken',
        '--revisions',
        'all',
        '--checks',
        'cache.*',
        '--reporter',
        `${EVERY_FORMAT},github`,
      ]);
      const report = revisionsReport(run);
      expect(report.revisions.map((e) => [e.revision, e.status])).toEqual([
        ['2026-07-28', 'audited'],
        ...REVISIONS.slice(1).map((r) => [r, 'not-supported']),
      ]);
      expect(run.code).toBe(0);
      for (const [name, text] of [
        ...readdirSync(run.outputDir).map((f) => [f, readFileSync(join(run.outputDir, f), 'utf8')]),
        ['stdout', run.stdout],
        ['stderr', run.stderr],
      ]) {
        expect(text, name).not.toContain('rev-s3cr3t-t0ken');
      }
    } finally {
      await server.stop();
    }
  });

  it('a target that cannot be started is tried once: the other revisions are not tried, and the cause is said once', async () => {
    const run = await runCli(['--stdio', 'mtc-no-such-command-4711', '--revisions', 'all', '--reporter', EVERY_FORMAT]);
    const report = revisionsReport(run);
    expect(run.code).toBe(3);
    expect(report.revisions.map((e) => [e.revision, e.status])).toEqual([
      ['2026-07-28', 'audited'],
      ...REVISIONS.slice(1).map((r) => [r, 'not-tried']),
    ]);
    expect(report.revisions[1]).toMatchObject({
      reason: expect.stringMatching(
        /^the target could not be started or reached when 2026-07-28 was offered \(cannot start 'mtc-no-such-command-4711': ENOENT\)/,
      ),
    });
    expect(run.stderr.match(/cannot start 'mtc-no-such-command-4711'/g)).toHaveLength(1);
    // The console: the reason once, no matrix of skips, and the verdict last.
    expect(run.stdout).toContain("The target could not be audited: cannot start 'mtc-no-such-command-4711': ENOENT");
    expect(run.stdout).toContain('Revisions: 5 asked, none audited: the target could not be started or reached');
    expect(run.stdout).not.toContain('Revision matrix');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^Verdict: not audited: 2026-07-28 not audited, 2025-11-25 not tried, .* \(exit 3\)$/,
    );
    expect(readFileSync(join(run.outputDir, 'junit.xml'), 'utf8')).toContain(
      'revision 2025-11-25 not tried: the target could not be started',
    );
    expect(readFileSync(join(run.outputDir, 'summary.md'), 'utf8')).toContain(
      '| 2024-11-05 | not tried: the target could not be started',
    );
  });

  it('so is a URL nothing listens on', async () => {
    const server = await startReferenceHttp();
    const url = server.url;
    await server.stop();
    const run = await runCli(['--url', url, '--revisions', '2025-11-25,2025-06-18', '--checks', 'cache.*']);
    expect(run.code).toBe(3);
    expect(revisionsReport(run).revisions.map((e) => [e.revision, e.status])).toEqual([
      ['2025-11-25', 'audited'],
      ['2025-06-18', 'not-tried'],
    ]);
    expect(revisionsReport(run).revisions[1]).toMatchObject({ reason: expect.stringContaining('ECONNREFUSED') });
  });

  it('no revision supported: exit 3, said on stderr', async () => {
    const run = await runCli(['--stdio', referenceCommand(), '--revisions', '2025-06-18', '--checks', 'cache.*']);
    expect(run.code).toBe(3);
    expect(revisionsReport(run)).toMatchObject({ verdict: 'aborted', exitCode: 3, matrix: expect.any(Array) });
    expect(run.stderr).toContain(
      'the target supports none of the revisions asked for (2025-06-18), so nothing was audited',
    );
  });

  it('a baseline entry matches findings of its own revision only; an entry without one, any revision', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-revisions-baseline-'));
    const baseline = (name: string, entry: Record<string, string>) => {
      const path = join(dir, `${name}.json`);
      writeFileSync(
        path,
        JSON.stringify({
          format: 'mcp-tools-conformance/baseline',
          version: 1,
          createdAt: '2026-01-01T00:00:00Z',
          entries: [{ check: 'cache.server.ttl-nonneg', ...entry }],
        }),
      );
      return path;
    };
    const audit = (file: string) =>
      runCli(['--stdio', defective, '--revisions', '2026-07-28', '--checks', 'cache.*', '--baseline', file]);
    const other = await audit(baseline('other', { revision: '2025-11-25' }));
    expect(other.code).toBe(1);
    expect(auditedRuns(revisionsReport(other))[0]!.run.baseline).toMatchObject({
      known: 0,
      new: 1,
      stale: [],
      unconfirmed: [],
    });
    const same = await audit(baseline('same', { revision: '2026-07-28' }));
    expect(same.code).toBe(0);
    expect(auditedRuns(revisionsReport(same))[0]!.run.baseline).toMatchObject({ known: 1, new: 0 });
    const any = await audit(baseline('any', {}));
    expect(any.code).toBe(0);
  });
});
