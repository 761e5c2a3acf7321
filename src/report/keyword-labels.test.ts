import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { KeywordLabel, KeywordText, Outcome, SpecSentence } from '../model/check.js';
import type { RunReport } from '../model/report.js';
import { toResult } from '../runner/runner.js';
import type { CheckDefinition } from '../runner/types.js';
import { createConsoleReporter } from './console.js';
import { annotations } from './github.js';
import { renderHtmlReport } from './html/page.js';
import { renderJsonReport } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { RUN_REPORT } from './run-report.fixture.js';
import { renderSarif } from './sarif.js';
import { KEYWORD_LABELS, STATUSES } from './statuses.js';

const WIRE = '2026-07-28';

function sentence(ref: string, text: string, keyword: KeywordText): SpecSentence {
  return { ref, text, keyword };
}

function definition(id: string, sentences: SpecSentence[]): CheckDefinition {
  return {
    id,
    keyword: sentences[0]!.keyword,
    title: `Title of ${id}`,
    specRef: sentences[0]!.ref,
    area: 'labels',
    sentences: { [WIRE]: sentences },
    run: () => [],
  };
}

const MUST_NOT = sentence('server/tools#tool-names', 'Tool names MUST NOT contain spaces', 'MUST NOT');
const REQUIRED = sentence('schema.json#/$defs/Tool/required', '["name","inputSchema"]', 'schema.json structural rule');
const RECOMMENDED = sentence('server/tools#tool-names', 'Tool names are RECOMMENDED to be short', 'RECOMMENDED');
const MAY = sentence('server/tools#tool', 'Servers MAY send annotations', 'MAY');
const MIRROR_MUST = sentence(
  'basic/transports/streamable-http#custom-headers',
  'Client MUST include the header',
  'MUST',
);
const EXAMPLE = sentence(
  'server/tools#x-mcp-header',
  'In this example, the client adds the header Mcp-Param-Region: us-west1 to the HTTP request.',
  'descriptive',
);
const LOWER_SHOULD = sentence(
  'schema.json#/$defs/Tool/properties/title',
  'a title should be short',
  'lower-case should in schema.json',
);

const failing = (message: string, named?: SpecSentence): Outcome => ({
  status: 'fail',
  message,
  ...(named ? { sentence: named } : {}),
});

/**
 * One finding per kind of text a verdict can rest on, built as the runner builds them. The descriptive one is the
 * over-encoding warning's case: a check governed by a MUST whose outcome names the page's example sentence.
 */
const CASES: { id: string; label: KeywordLabel; status: 'fail' | 'warn'; check: CheckDefinition; outcome: Outcome }[] =
  [
    {
      id: 'labels.must-not',
      label: 'MUST',
      status: 'fail',
      check: definition('labels.must-not', [MUST_NOT]),
      outcome: failing('a space in a name'),
    },
    {
      id: 'labels.schema',
      label: 'SCHEMA',
      status: 'fail',
      check: definition('labels.schema', [REQUIRED]),
      outcome: failing('no inputSchema'),
    },
    {
      id: 'labels.recommended',
      label: 'SHOULD',
      status: 'warn',
      check: definition('labels.recommended', [RECOMMENDED]),
      outcome: failing('a long name'),
    },
    {
      id: 'labels.may',
      label: 'MAY',
      status: 'warn',
      check: definition('labels.may', [MAY]),
      outcome: failing('annotations not as allowed'),
    },
    {
      id: 'labels.mirror',
      label: 'DESCRIPTIVE',
      status: 'warn',
      check: definition('labels.mirror', [MIRROR_MUST, EXAMPLE]),
      outcome: failing('a header-safe value went Base64-encoded', EXAMPLE),
    },
    {
      id: 'labels.lower-should',
      label: 'DESCRIPTIVE',
      status: 'warn',
      check: definition('labels.lower-should', [LOWER_SHOULD]),
      outcome: failing('a long title'),
    },
  ];

const report: RunReport = {
  ...RUN_REPORT,
  wire: { protocolVersion: WIRE, reason: 'server/discover advertised 2026-07-28' },
  aborted: undefined,
  summary: { pass: 0, fail: 2, warn: 4, skip: 0, error: 0 },
  verdict: 'fail',
  exitCode: 1,
  checks: CASES.map(({ check, outcome }) => toResult(check, outcome, 1, WIRE)),
};

const expected = Object.fromEntries(CASES.map((c) => [c.id, c.label]));
const only = <T>(items: readonly T[]): T => {
  expect(items).toHaveLength(1);
  return items[0]!;
};

async function consoleText(): Promise<string> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const reporter = createConsoleReporter({ stream, color: false });
  report.checks.forEach((check) => reporter.onResult?.(check));
  await reporter.finish(report, 'ignored');
  return Buffer.concat(chunks).toString('utf8');
}

/** Per label, the counts of a By-keyword table row by status, from the report itself. */
function rowCounts(label: KeywordLabel): number[] {
  return STATUSES.map((status) => CASES.filter((c) => c.label === label && c.status === status).length);
}

describe('one vocabulary of keyword labels in every format', () => {
  it('the run holds every label, each finding with the verdict its sentence allows', () => {
    expect(new Set(CASES.map((c) => c.label))).toEqual(new Set(KEYWORD_LABELS));
    expect(Object.fromEntries(report.checks.map((c) => [c.id, c.status]))).toEqual(
      Object.fromEntries(CASES.map((c) => [c.id, c.status])),
    );
  });

  it('JSON: keywordLabel, with keyword and keywordText as before', () => {
    const checks = (JSON.parse(renderJsonReport(report)) as RunReport).checks;
    expect(Object.fromEntries(checks.map((c) => [c.id, c.keywordLabel]))).toEqual(expected);
    const mirror = checks.find((c) => c.id === 'labels.mirror')!;
    expect(mirror).toMatchObject({
      keyword: 'SHOULD',
      keywordText: 'descriptive',
      quote: EXAMPLE.text,
      specRef: EXAMPLE.ref,
    });
  });

  it('console: the keyword column of each line, and a By-keyword row per label', async () => {
    const out = await consoleText();
    const labels = Object.fromEntries(
      [...out.matchAll(/^(?:FAIL|WARN) (\S+) +(labels\.\S+) /gm)].map((m) => [m[2], m[1]]),
    );
    expect(labels).toEqual(expected);
    const table = out
      .slice(out.indexOf('By keyword:'))
      .split('\n')
      .slice(2, 2 + KEYWORD_LABELS.length);
    expect(table.map((line) => line.trim().split(/\s+/))).toEqual(
      KEYWORD_LABELS.map((label) => [label, ...rowCounts(label).map(String)]),
    );
    expect(out).not.toMatch(/\bDESCR\b|^\S+ should /m);
  });

  it('HTML: the badge of each outcome and its requirement line', () => {
    const html = renderHtmlReport(report);
    for (const { id, label } of CASES) {
      const outcome = only([
        ...html.matchAll(
          new RegExp(
            `<details class="check" id="[^"]*" data-status="\\w+" data-check="${id.replace('.', '\\.')}` +
              `">(.*?)</details>`,
            'g',
          ),
        ),
      ])[1]!;
      expect([...outcome.matchAll(/<span class="keyword">([^<]*)<\/span>/g)].map((m) => m[1])).toEqual([label]);
      expect(outcome).toContain(`<code>${id}</code> (${label})`);
    }
  });

  it('Markdown: the findings tables and a By-keyword row per label', () => {
    const md = renderMarkdown(report);
    const labels = Object.fromEntries(
      [...md.matchAll(/^\| `(labels\.[^`]+)` \| \[([^\]]+)\]\(/gm)].map((m) => [m[1], m[2]]),
    );
    expect(labels).toEqual(expected);
    for (const label of KEYWORD_LABELS) expect(md).toContain(`| ${label} | ${rowCounts(label).join(' | ')} |`);
    expect(md).not.toMatch(/\[(descriptive|DESCR|should)\]/);
  });

  it('JUnit: the keyword of each test case and the type of each failure', () => {
    const xml = renderJunit(report);
    for (const { id, label, status } of CASES) {
      const testcase = only(xml.split('<testcase').filter((part) => part.includes(`› ${id} ›`)));
      expect([...testcase.matchAll(/^keyword: (.*)$/gm)].map((m) => m[1])).toEqual([label]);
      if (status === 'fail') expect(testcase).toContain(`type="${label}"`);
    }
    const extended = renderJunit(report, { extended: true });
    for (const { id, label } of CASES) {
      const testcase = only(extended.split('<testcase').filter((part) => part.includes(`› ${id} ›`)));
      expect(testcase).toContain(`<property name="keyword" value="${label}"/>`);
    }
  });

  it('SARIF: each rule and result, its tags and its help', () => {
    type Sarif = {
      runs: {
        tool: {
          driver: {
            rules: {
              id: string;
              fullDescription: { text: string };
              help: { markdown: string };
              properties: { keyword: string; tags: string[] };
            }[];
          };
        };
        results: { ruleId: string; properties: { keyword: string } }[];
      }[];
    };
    const run = (renderSarif(report) as Sarif).runs[0]!;
    for (const { id, label } of CASES) {
      const rule = only(run.tool.driver.rules.filter((r) => r.id === id));
      expect(rule.properties.keyword).toBe(label);
      expect(
        rule.properties.tags.filter(
          (tag) => (KEYWORD_LABELS as string[]).includes(tag) || /^(DESCR|should|descriptive)$/.test(tag),
        ),
      ).toEqual([label]);
      expect(rule.fullDescription.text).toBe(`${label}: Title of ${id}`);
      expect(rule.help.markdown.startsWith(`**${label}** — `)).toBe(true);
      expect(only(run.results.filter((r) => r.ruleId === id)).properties.keyword).toBe(label);
    }
  });

  it('GitHub: the label before each quoted sentence', () => {
    const lines = annotations(report);
    for (const { id, label, check } of CASES) {
      const line = only(lines.filter((l) => l.includes(`title=${id}::`)));
      const quoted = (check.sentences[WIRE]!.find((s) => s.keyword !== 'MUST') ?? check.sentences[WIRE]![0]!).text;
      expect(line).toContain(`%0A${label}: "${quoted}"`);
    }
  });
});
