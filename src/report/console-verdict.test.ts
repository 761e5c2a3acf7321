import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../model/check.js';
import type { RevisionsReport, RunReport } from '../model/report.js';
import { palette } from './color.js';
import { createConsoleReporter } from './console.js';
import { auditOutcome, revisionsVerdictLine, verdictLine } from './console-verdict.js';
import { CHECKS, RUN_REPORT } from './run-report.fixture.js';
import { countByStatus } from './statuses.js';

const PLAIN = palette(false);

/** A report of these checks, concluded with this exit code (and nothing aborted unless given). */
function concluded(checks: CheckResult[], exitCode: number, extra: Partial<RunReport> = {}): RunReport {
  const verdict = exitCode === 0 ? 'pass' : exitCode === 1 ? 'fail' : 'aborted';
  return {
    ...RUN_REPORT,
    aborted: undefined,
    checks,
    summary: countByStatus(checks),
    exitCode,
    verdict,
    durationMs: 4200,
    ...extra,
  };
}

const pass = CHECKS[0]!;
const fail = CHECKS[1]!;
const warn = CHECKS[2]!;
const skip = CHECKS[3]!;
const error = CHECKS[4]!;

/** Every check of the selection skipped as the engine skips them when the target cannot be started or reached. */
function unreachable(extra: Partial<RunReport> = {}): RunReport {
  const notRun = CHECKS.map((check) => ({
    ...check,
    status: 'skip' as const,
    message: 'not run: cannot reach the target: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
  }));
  return {
    ...concluded(notRun, 3),
    target: { transport: 'http', url: 'http://127.0.0.1:9/mcp' },
    wire: {
      protocolVersion: null,
      reason:
        'the target could not be audited: cannot reach the target: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
    },
    aborted: {
      reason:
        'the target could not be audited: cannot reach the target: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
    },
    durationMs: 630,
    ...extra,
  };
}

async function consoleOf(report: RunReport, options: { quiet?: boolean; verbose?: boolean } = {}): Promise<string[]> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const reporter = createConsoleReporter({
    stream,
    color: false,
    writtenPaths: () => ['reports/report.json', 'reports/junit.xml'],
    ...options,
  });
  report.checks.forEach((check) => reporter.onResult?.(check));
  await reporter.finish(report, 'ignored');
  return Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
}

describe('the verdict line of a single audit', () => {
  it('says the outcome, the findings, the time and the exit code', () => {
    expect(verdictLine(concluded([pass, skip], 0), PLAIN)).toBe(
      'Verdict: conformant: no fails, no warnings in 4.2 s (exit 0)',
    );
    expect(verdictLine(concluded([pass, warn], 0), PLAIN)).toBe(
      'Verdict: warnings: no fails, 1 warning in 4.2 s (exit 0)',
    );
    expect(verdictLine(concluded([pass, fail, warn, fail], 1), PLAIN)).toBe(
      'Verdict: failing: 2 fails, 1 warning in 4.2 s (exit 1)',
    );
    expect(
      verdictLine(concluded([fail, warn, error], 3, { aborted: { reason: 'target exited with code 1' } }), PLAIN),
    ).toBe('Verdict: incomplete: 1 fail, 1 warning, 1 error; the audit stopped in 4.2 s (exit 3)');
  });

  it('names what fails a run that has no fail, and counts known findings apart', () => {
    expect(verdictLine(concluded([pass, warn], 1, { failOn: 'should' }), PLAIN)).toBe(
      'Verdict: failing: no fails, 1 warning; warnings fail the run under --fail-on should in 4.2 s (exit 1)',
    );
    const lock = { file: 'tools.lock.json', status: 'changed' as const, added: ['new_tool'], removed: [], changed: [] };
    expect(verdictLine(concluded([pass], 1, { lock }), PLAIN)).toBe(
      'Verdict: failing: no fails, no warnings; the tool set changed since the lock in 4.2 s (exit 1)',
    );
    const known = { ...fail, baselined: true };
    expect(verdictLine(concluded([pass, known, { ...warn, baselined: true }], 0), PLAIN)).toBe(
      'Verdict: conformant: no fails (+1 known), no warnings (+1 known) in 4.2 s (exit 0)',
    );
    expect(verdictLine(concluded([pass, skip], 0, { cutShort: { reason: 'budget', checksSkipped: 1 } }), PLAIN)).toBe(
      'Verdict: conformant: no fails, no warnings; cut short by --max-duration (1 check(s) skipped) in 4.2 s (exit 0)',
    );
  });

  it('is not audited when no check could run', () => {
    expect(auditOutcome(unreachable())).toBe('not audited');
    expect(verdictLine(unreachable(), PLAIN)).toBe(
      `Verdict: not audited: none of ${CHECKS.length} check(s) could run in 630 ms (exit 3)`,
    );
  });

  it('ends the console output, after the findings, and --quiet keeps it', async () => {
    const report = concluded([pass, fail, warn, skip], 1);
    for (const options of [{}, { quiet: true }, { verbose: true }]) {
      const lines = await consoleOf(report, options);
      expect(lines.at(-1)).toBe('Verdict: failing: 1 fail, 1 warning in 4.2 s (exit 1)');
      expect(lines.filter((line) => line.startsWith('Verdict:'))).toHaveLength(1);
      expect(lines.indexOf('Findings (2):')).toBeLessThan(lines.length - 1);
    }
  });

  it('is painted by outcome when colours are on', () => {
    expect(verdictLine(concluded([pass, fail], 1), palette(true))).toContain('\u001b[31mfailing\u001b[39m');
    expect(verdictLine(concluded([pass], 0), palette(true))).toContain('\u001b[32mconformant\u001b[39m');
  });
});

describe('a target that could not be started or reached', () => {
  it('gets the reason first, a few lines, no tables, and the verdict', async () => {
    const lines = await consoleOf(unreachable());
    expect(lines).toEqual([
      '',
      'The target could not be audited: cannot reach the target: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
      '  target: http://127.0.0.1:9/mcp',
      `  ${CHECKS.length} check(s) not run (--verbose lists them)`,
      'Reports: reports/report.json, reports/junit.xml',
      '',
      `Verdict: not audited: none of ${CHECKS.length} check(s) could run in 630 ms (exit 3)`,
    ]);
    expect(await consoleOf(unreachable(), { quiet: true })).toEqual(lines);
  });

  it("shows the line of the target's stderr that names the error, the rest counted", async () => {
    const targetStderr = [
      'node:internal/modules/cjs/loader:1210',
      '  throw err;',
      '  ^',
      '…',
      "Error: Cannot find module '/nonexistent/x.js'",
      '…',
      '}',
      'Node.js v20.20.2',
    ];
    const report = unreachable({
      target: { transport: 'stdio', command: 'node /nonexistent/x.js' },
      aborted: {
        reason: `the target could not be audited: target exited with code 1 (stderr: ${targetStderr.join(' ')})`,
        targetStderr,
      },
    });
    const lines = await consoleOf(report);
    expect(lines.slice(1, 4)).toEqual([
      'The target could not be audited: target exited with code 1',
      '  target: node /nonexistent/x.js',
      "  target stderr: Error: Cannot find module '/nonexistent/x.js' (and 5 more line(s) in report.json, " +
        'aborted.targetStderr)',
    ]);
    expect(lines.length).toBeLessThanOrEqual(8);
  });

  it('a target lost after some checks ran keeps the full summary', async () => {
    const lines = await consoleOf(
      concluded([pass, error, skip], 3, { aborted: { reason: 'target exited with code 1', duringCheck: error.id } }),
    );
    expect(lines).toContain('Audit aborted.');
    expect(lines).toContain('By keyword:');
    expect(lines.at(-1)).toBe(
      'Verdict: incomplete: no fails, no warnings, 1 error; the audit stopped in 4.2 s (exit 3)',
    );
  });
});

describe('the verdict line of a --revisions audit', () => {
  it("says each revision's outcome", () => {
    const report: RevisionsReport = {
      tool: RUN_REPORT.tool,
      target: RUN_REPORT.target,
      startedAt: RUN_REPORT.startedAt,
      durationMs: 12_000,
      verdict: 'fail',
      exitCode: 1,
      failOn: 'must',
      revisions: [
        { revision: '2026-07-28', status: 'audited', run: concluded([pass], 0) },
        { revision: '2025-11-25', status: 'audited', run: concluded([pass, fail], 1) },
        { revision: '2025-06-18', status: 'not-supported', reason: 'answered 2025-11-25' },
      ],
      matrix: [],
    };
    expect(revisionsVerdictLine(report, PLAIN)).toBe(
      'Verdict: failing: 2026-07-28 conformant, 2025-11-25 failing, 2025-06-18 not supported in 12.0 s (exit 1)',
    );
  });
});
