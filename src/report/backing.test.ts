import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { toResult } from '../runner/runner.js';
import type { CheckDefinition } from '../runner/types.js';
import { createConsoleReporter } from './console.js';
import { renderHtmlReport } from './html/page.js';
import { renderMarkdown } from './markdown.js';
import { RUN_REPORT } from './run-report.fixture.js';
import { renderSarif } from './sarif.js';
import type { RunReport } from '../model/report.js';

const PAGE_2025_11_25 = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling';

/** A check whose page only describes the behaviour on 2025-11-25: the finding must say so and link there. */
const described: CheckDefinition = {
  id: 'tools.err.unknown-tool',
  keyword: 'descriptive',
  title: 'Calling an unlisted tool is a JSON-RPC error',
  specRef: 'server/tools#error-handling',
  area: 'tool-calls',
  sentences: {
    '2025-11-25': [
      {
        ref: 'server/tools#error-handling',
        text: 'Standard JSON-RPC errors for issues like: Unknown tools',
        keyword: 'descriptive',
      },
    ],
  },
  run: () => [],
};

const report: RunReport = {
  ...RUN_REPORT,
  wire: { protocolVersion: '2025-11-25', reason: 'server/discover was not found; fell back to initialize' },
  checks: [
    toResult(
      described,
      { status: 'fail', message: 'an isError result', expected: 'a JSON-RPC error' },
      1,
      '2025-11-25',
    ),
  ],
};

describe('every reporter says what kind of sentence backs a finding, and links into the revision in use', () => {
  it('the result is a warn labelled DESCRIPTIVE, with the quote and a 2025-11-25 link', () => {
    expect(report.checks[0]).toMatchObject({
      status: 'warn',
      keywordText: 'descriptive',
      keywordLabel: 'DESCRIPTIVE',
      quote: 'Standard JSON-RPC errors for issues like: Unknown tools',
      specUrl: PAGE_2025_11_25,
    });
  });

  it('console', async () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const reporter = createConsoleReporter({ stream, color: false });
    reporter.onResult?.(report.checks[0]!);
    const out = Buffer.concat(chunks).toString('utf8');
    expect(out).toContain(
      `spec: DESCRIPTIVE: the spec describes this without a BCP 14 keyword, so it can only warn · ${PAGE_2025_11_25}`,
    );
    expect(out).toContain('"Standard JSON-RPC errors for issues like: Unknown tools"');
    expect(out).toMatch(/^WARN DESCRIPTIVE tools\.err\.unknown-tool /m);
  });

  it('SARIF', () => {
    const rule = (
      renderSarif(report) as { runs: { tool: { driver: { rules: { helpUri: string; help: { text: string } }[] } } }[] }
    ).runs[0]!.tool.driver.rules[0]!;
    expect(rule.helpUri).toBe(PAGE_2025_11_25);
    expect(rule.help.text).toContain('of MCP 2025-11-25');
    expect(rule.help.text).toContain('(DESCRIPTIVE: the spec describes this without a BCP 14 keyword');
  });

  it('Markdown', () => {
    expect(renderMarkdown(report)).toContain(`[DESCRIPTIVE](${PAGE_2025_11_25})`);
  });

  it('HTML', () => {
    const html = renderHtmlReport(report);
    expect(html).toContain(`href="${PAGE_2025_11_25}"`);
    expect(html).toContain('Standard JSON-RPC errors for issues like: Unknown tools');
    expect(html).toContain('DESCRIPTIVE: the spec describes this');
  });
});
