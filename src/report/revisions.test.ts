import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../test/helpers/shared.js';
import { matrixRows } from '../engine/revisions.js';
import type { RevisionsReport, RunReport } from '../model/report.js';
import { specUrl } from '../spec-links.js';
import { palette } from './color.js';
import { matrixLines, revisionsSummaryLines } from './console-matrix.js';
import { revisionsAnnotations } from './github.js';
import { renderHtmlRevisions } from './html.js';
import { renderJsonRevisions } from './json.js';
import { createJunitReporter } from './junit.js';
import { renderMarkdownRevisions } from './markdown.js';
import { HOSTILE_TEXT, RUN_REPORT } from './run-report.fixture.js';
import { renderSarifRevisions } from './sarif.js';

/**
 * The fixture run (aborted on 2026-07-28) judged on 2024-11-05 as well, completed there: its links point into that
 * revision.
 */
const { aborted: _aborted, ...COMPLETED } = RUN_REPORT;
const OLDER: RunReport = {
  ...COMPLETED,
  wire: { protocolVersion: '2024-11-05', reason: '--revisions: initialize agreed protocol version 2024-11-05' },
  verdict: 'fail',
  exitCode: 1,
  summary: { ...RUN_REPORT.summary, error: 0 },
  checks: RUN_REPORT.checks
    .filter((check) => check.status !== 'error')
    .map((check) => ({ ...check, specUrl: specUrl(check.specRef, '2024-11-05') })),
};
const sentence = { ref: 'server/tools#tools', text: 't', keyword: 'MUST' } as const;
/** Every check of the fixture exists in 2026-07-28; only tools.name.charset exists in 2024-11-05 too. */
const DEFINITIONS = [...new Map(RUN_REPORT.checks.map((c) => [c.id, c])).values()].map((c) => ({
  ...c,
  sentences:
    c.id === 'tools.name.charset'
      ? { '2026-07-28': [sentence], '2024-11-05': [sentence] }
      : { '2026-07-28': [sentence] },
}));
const RUNS = [
  { revision: '2026-07-28' as const, run: RUN_REPORT },
  { revision: '2024-11-05' as const, run: OLDER },
];
const REPORT: RevisionsReport = {
  tool: RUN_REPORT.tool,
  target: RUN_REPORT.target,
  startedAt: RUN_REPORT.startedAt,
  durationMs: 9000,
  verdict: 'aborted',
  exitCode: 3,
  failOn: 'must',
  revisions: [
    { revision: '2026-07-28', status: 'audited', run: RUN_REPORT },
    { revision: '2025-11-25', status: 'not-supported', reason: `initialize answered error -32600: ${HOSTILE_TEXT}` },
    { revision: '2024-11-05', status: 'audited', run: OLDER },
  ],
  matrix: matrixRows(DEFINITIONS, RUNS),
};

// eslint-disable-next-line no-control-regex -- no raw control character may reach the page
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('every format of a --revisions report', () => {
  it('report.json validates against data/report.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(new URL('../../data/report.schema.json', import.meta.url), 'utf8')),
    );
    const json = JSON.parse(renderJsonRevisions(REPORT));
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ ...json, revisions: [{ revision: '2025-11-25', status: 'not-supported' }] })).toBe(false);
    expect(validate({ ...json, matrix: [{ ...json.matrix[0], cells: { '2025-11-24': 'pass' } }] })).toBe(false);
  });

  it("console: the matrix (n/a where a check does not exist, — for the revision not audited) and every run's findings, with the target text made inert", () => {
    const lines = [
      ...matrixLines(REPORT, palette(false), true),
      ...revisionsSummaryLines(REPORT, palette(false), ['out/report.json']),
    ];
    const text = lines.join('\n');
    expect(text).not.toMatch(CONTROL);
    expect(lines).toContain('  check                           2026-07-28  2025-11-25  2024-11-05');
    expect(lines).toContain('  tools.name.charset              fail        —           fail');
    expect(lines).toContain('  tools.list.deterministic-order  warn        —           n/a');
    expect(text).toMatch(/ {2}2025-11-25 {2}not supported: initialize answered error -32600: evil \\x1b\[2Jclear/);
    expect(text).toContain('  FAIL 2024-11-05 tools.name.charset [bad name!]: ');
    expect(text).toContain('Duration: 9.0 s, 24 request(s) over 2 audit(s)');
  });

  it("Markdown: the same table, the reason escaped, each revision's findings linked to its own anchors", () => {
    const markdown = renderMarkdownRevisions(REPORT, { htmlReport: 'report.html' });
    expect(markdown.split('\n')[0]).toBe(
      '## MCP tools conformance across revisions — evil-server \\\\x1b\\[31mx 1.0.0: ⛔ audit incomplete on 2026-07-28',
    );
    expect(markdown).toContain('| Check | 2026-07-28 | 2025-11-25 | 2024-11-05 |');
    expect(markdown).toContain(
      '| `tools.name.charset` | [fail](report.html#2026-07-28-check-tools.name.charset) | — | ' +
        '[fail](report.html#2024-11-05-check-tools.name.charset) |',
    );
    expect(markdown).toContain('### 2024-11-05: Failures');
    expect(markdown).toContain(
      `| 2025-11-25 | not supported: initialize answered error -32600: evil \\\\x1b\\[2Jclear`,
    );
    expect(markdown).not.toMatch(/[^\\]</);
    expect(markdown).not.toMatch(CONTROL);
  });

  it('HTML: the reason and the server name as text, a column per revision, a section per audited run', () => {
    const html = renderHtmlRevisions(REPORT);
    expect(html).not.toContain(HOSTILE_TEXT);
    expect(html).toContain('&lt;&amp;&quot;&#39;&gt;');
    expect(html.match(/<th data-revision="[^"]+">/g)).toHaveLength(3);
    expect(html).toContain('<td class="cell na" data-revision="2025-11-25" data-cell="not-audited">—</td>');
    expect(html).toContain('<section class="revision" id="revision-2024-11-05" data-revision="2024-11-05">');
    expect(html).toContain('id="2024-11-05-check-tools.name.charset"');
    expect(html).toContain('judged under MCP revisions 2026-07-28, 2024-11-05, each run under its own.');
  });

  const xsd = sharedPath('formats/junit-10.xsd');
  const xsdSkip =
    spawnSync('xmllint', ['--version']).status !== 0
      ? 'xmllint is not on PATH'
      : !existsSync(xsd)
        ? `${xsd} is missing`
        : undefined;
  it.skipIf(xsdSkip !== undefined)(
    `JUnit: a testsuite per revision, valid under junit-10.xsd with hostile text ` +
      `${xsdSkip ? `(SKIPPED: ${xsdSkip})` : ''}`,
    async () => {
      const path = await createJunitReporter().finishRevisions(REPORT, mkdtempSync(join(tmpdir(), 'junit-revisions-')));
      expect(() => execFileSync('xmllint', ['--noout', '--schema', xsd, path!], { stdio: 'pipe' })).not.toThrow();
      const xml = readFileSync(path!, 'utf8');
      expect(xml.match(/<testsuite name="[^"]+"/g)).toEqual([
        '<testsuite name="2026-07-28"',
        '<testsuite name="2025-11-25"',
        '<testsuite name="2024-11-05"',
      ]);
      expect(xml).toContain('classname="2024-11-05.tools-list"');
      expect(xml.match(/<failure /g)).toHaveLength(2);
    },
  );

  const sarifSchema = sharedPath('formats/sarif-schema-2.1.0.json');
  it.skipIf(!existsSync(sarifSchema))(
    'SARIF: a run per revision, its rules linked into that revision, valid against the SARIF 2.1.0 schema',
    () => {
      const sarif = renderSarifRevisions(REPORT) as {
        runs: {
          automationDetails: { id: string };
          results: unknown[];
          tool: { driver: { rules: { helpUri: string }[] } };
        }[];
      };
      const ajv = new Ajv04.default({ allErrors: true, strict: false, validateFormats: false });
      const validate = ajv.compile(JSON.parse(readFileSync(sarifSchema, 'utf8')));
      expect(validate(sarif), ajv.errorsText(validate.errors)).toBe(true);
      expect(sarif.runs.map((run) => run.automationDetails.id)).toEqual([
        'mcp-tools-conformance/2026-07-28/',
        'mcp-tools-conformance/2025-11-25/',
        'mcp-tools-conformance/2024-11-05/',
      ]);
      expect(sarif.runs.map((run) => run.results.length)).toEqual([2, 0, 2]);
      expect(
        sarif.runs[2]!.tool.driver.rules.every((rule) => rule.helpUri.includes('/specification/2024-11-05/')),
      ).toBe(true);
    },
  );

  it("GitHub annotations: each run's, titled with its revision", () => {
    const titles = revisionsAnnotations(REPORT).map((line) => /title=([^:]*)::/.exec(line)?.[1]);
    expect(titles).toContain('[2026-07-28] tools.name.charset');
    expect(titles).toContain('[2024-11-05] tools.name.charset');
  });
});
