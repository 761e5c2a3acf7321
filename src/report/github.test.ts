import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../model/check.js';
import { annotations, createGithubReporter, escapeData, escapeProperty, SHOWN_PER_TYPE } from './github.js';
import { renderMarkdown } from './markdown.js';
import { CHECKS, HOSTILE_TEXT, RUN_REPORT } from './run-report.fixture.js';
import type { RunReport } from '../model/report.js';

/** What a step's log would hold: one workflow command per line. */
async function finish(report: RunReport, stepSummary?: string): Promise<string[]> {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const path = await createGithubReporter({ stream, ...(stepSummary !== undefined ? { stepSummary } : {}) }).finish(
    report,
    tmpdir(),
  );
  expect(path).toBeUndefined();
  return out.split('\n').filter(Boolean);
}

const base = CHECKS.find((c) => c.status === 'fail')!;
const outcome = (id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
  ...base,
  id,
  status,
  tool: undefined,
  quote: 'Servers MUST do it.',
  ...extra,
});
const reportOf = (checks: CheckResult[], extra: Partial<RunReport> = {}): RunReport => ({
  ...RUN_REPORT,
  aborted: undefined,
  checks,
  ...extra,
});

describe('github reporter', () => {
  it("escapes messages and properties as GitHub's workflow commands do", () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext%3A a%2Cb');
  });

  it('writes one annotation per fail and error (::error) and per warn (::warning), titled by the check id', async () => {
    const report = reportOf([
      outcome('a.fail', 'fail'),
      outcome('b.warn', 'warn'),
      outcome('c.pass', 'pass'),
      outcome('d.skip', 'skip'),
      outcome('e.error', 'error'),
      outcome('f.fail', 'fail', { tool: 'get_weather' }),
    ]);
    const lines = await finish(report);
    expect(lines.map((l) => /^::(\w+) title=([^:]+)::/.exec(l)?.slice(1, 3).join(' '))).toEqual([
      'error a.fail',
      'error e.error',
      'error f.fail',
      'warning b.warn',
    ]);
    expect(lines[2]).toMatch(/::\[get_weather\] /);
    expect(lines[0]).toContain(`%0A${base.keywordText}: "Servers MUST do it."`);
    expect(lines[0]).toContain(`%0A${base.specUrl}`);
  });

  it('leaves findings in the baseline out; names an incomplete audit and a changed tool lock', async () => {
    const lock = {
      file: 'tools.lock.json',
      status: 'changed' as const,
      added: ['x'],
      removed: [],
      changed: [{ tool: 'y', fields: ['inputSchema'] }],
    };
    const lines = await finish(
      reportOf([outcome('a.known', 'fail', { baselined: true }), outcome('b.new', 'fail')], {
        aborted: { reason: 'target exited' },
        lock,
      }),
    );
    expect(lines).toEqual([
      '::error title=mcp-tools-conformance::the audit did not complete: target exited',
      expect.stringMatching(/^::error title=b\.new::/),
      '::error title=tool lock::the tool set changed since tools.lock.json: +x, ~y (inputSchema)',
    ]);
  });

  it('writes every error but at most 10 warnings, and a notice says what GitHub does not show', () => {
    const many = (status: CheckResult['status'], n: number) =>
      Array.from({ length: n }, (_, i) => outcome(`${status}.${i}`, status));
    const lines = annotations(reportOf([...many('fail', 12), ...many('warn', 15)]));
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(12);
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(SHOWN_PER_TYPE);
    expect(lines.at(-1)).toBe(
      `::notice title=mcp-tools-conformance::12 errors annotated, GitHub shows the first ${SHOWN_PER_TYPE}; 15 ` +
        `warnings, the first ${SHOWN_PER_TYPE} annotated. Every finding is in the job summary and the reports.`,
    );
    expect(
      annotations(reportOf([...many('fail', 10), ...many('warn', 10)])).some((l) => l.startsWith('::notice')),
    ).toBe(false);
  });

  it('nothing from the target can start a workflow command: each annotation stays one line, control characters escaped', async () => {
    const injected = 'bad\n::set-output name=x::pwned\r\n::add-mask::x%0A';
    const lines = await finish(
      reportOf([
        outcome('a.fail', 'fail', {
          message: injected,
          tool: 'evil\n::stop-commands::t',
          expected: HOSTILE_TEXT,
          quote: '\n::error::q',
        }),
      ]),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^::error title=a\.fail::\[evil%0A::stop-commands::t\] bad%0A::set-output name=x::pwned%0A::add-mask::x%250A%0Aexpected: /,
    );
    // eslint-disable-next-line no-control-regex -- no raw control character may reach a workflow command
    expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });

  it('appends the markdown summary to $GITHUB_STEP_SUMMARY when it is set, and only then', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'github-reporter-'));
    try {
      const file = join(dir, 'step-summary.md');
      await writeFile(file, 'earlier step\n');
      await finish(RUN_REPORT, file);
      expect(await readFile(file, 'utf8')).toBe(`earlier step\n${renderMarkdown(RUN_REPORT)}\n`);
      const lines = await finish(RUN_REPORT, '');
      expect(lines.every((l) => l.startsWith('::'))).toBe(true);
      const unwritable = await finish(RUN_REPORT, join(dir, 'no-such-dir', 'summary.md'));
      expect(unwritable.at(-1)).toBe(
        '::warning title=mcp-tools-conformance::the summary could not be appended to GITHUB_STEP_SUMMARY (ENOENT)',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
