import { describe, expect, it } from 'vitest';
import { markdownInline, renderMarkdown } from './markdown.js';
import { HOSTILE_TEXT, RUN_REPORT } from './run-report.fixture.js';

describe('Markdown summary', () => {
  const text = renderMarkdown(RUN_REPORT, { htmlReport: 'report.html' });

  it('shows the counts by keyword and the totals of the report', () => {
    for (const status of Object.keys(RUN_REPORT.summary)) expect(text).toContain(status);
    const totals = text.split('\n').find((line) => line.startsWith('| **all**'))!;
    expect(totals).toBe(
      `| **all** | ` +
        String(
          ['pass', 'fail', 'warn', 'skip', 'error'].map((s) => `**${RUN_REPORT.summary[s as 'pass']}**`).join(' | '),
        ) +
        ` |`,
    );
  });

  it('lists each failure with its requirement ID linked into the HTML report', () => {
    const failures = RUN_REPORT.checks.filter((c) => c.status === 'fail');
    expect(failures.length).toBeGreaterThan(0);
    for (const check of failures) expect(text).toContain(`[\`${check.id}\`](report.html#check-${check.id}`);
    expect(text).toMatch(/^## MCP tools conformance.*(❌|⛔)/m);
  });

  it('numbers the anchors of a check with several outcomes like the HTML report does', () => {
    const twice = {
      ...RUN_REPORT,
      checks: [RUN_REPORT.checks[0]!, { ...RUN_REPORT.checks[0]! }].map((c) => ({ ...c, status: 'fail' as const })),
    };
    const id = twice.checks[0]!.id;
    const links = renderMarkdown(twice, { htmlReport: 'report.html' }).match(
      new RegExp(`report\\.html#check-${id.replace(/\./g, '\\.')}(-\\d+)?\\)`, 'g'),
    );
    expect(links).toEqual([`report.html#check-${id})`, `report.html#check-${id}-2)`]);
  });

  it('has no links without an HTML report', () => {
    expect(renderMarkdown(RUN_REPORT)).not.toContain('report.html');
  });

  it('never cuts a finding without saying where its full text is', () => {
    const long = { ...RUN_REPORT.checks[2]!, message: `${'a long warning '.repeat(30)}END` };
    const report = { ...RUN_REPORT, checks: [long] };
    const rowOf = (md: string) =>
      md.split('\n').find((line) => line.startsWith(`| \`${long.id}\``) || line.startsWith(`| [\`${long.id}\``))!;
    expect(rowOf(renderMarkdown(report, { htmlReport: 'report.html', jsonReport: 'report.json' }))).toMatch(
      /…\\\[\\\+\d+ chars\\\] \(\[full text\]\(report\.html#check-tools\.list\.deterministic-order\)\) \|$/,
    );
    expect(rowOf(renderMarkdown(report, { jsonReport: 'report.json' }))).toMatch(
      / \(full text in `report\.json`\) \|$/,
    );
    expect(rowOf(renderMarkdown(report))).toMatch(/ \(full text: `--reporter json` writes report\.json\) \|$/);
    // A message that fits is not pointed anywhere.
    expect(rowOf(renderMarkdown(RUN_REPORT, { jsonReport: 'report.json' }))).not.toContain('full text');
  });

  it('says where the findings past the table are', () => {
    const many = {
      ...RUN_REPORT,
      checks: Array.from({ length: 53 }, (_, i) => ({ ...RUN_REPORT.checks[2]!, id: `w.${i}` })),
    };
    expect(renderMarkdown(many, { htmlReport: 'report.html' })).toContain(
      '| … | | | 3 more: [report.html](report.html) |',
    );
    expect(renderMarkdown(many, { jsonReport: 'report.json' })).toContain('| … | | | 3 more: `report.json` |');
    expect(renderMarkdown(many)).toContain('| … | | | 3 more: `--reporter json` writes report.json |');
  });

  it('makes target text inert: one line, no raw control characters, markup escaped', () => {
    const inert = markdownInline(`${HOSTILE_TEXT}\n| [x](javascript:alert(1)) <img src=x>`);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the summary
    expect(inert).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(inert).not.toContain('\n');
    expect(inert).not.toMatch(/(^|[^\\])[|<>[\]()]/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the summary
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
