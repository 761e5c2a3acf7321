import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../model/check.js';
import { cellOf, matrixRows, revisionsExitCode } from './revisions.js';

const sentence = { ref: 'server/tools#tool', text: 't', keyword: 'MUST' } as const;
const CHECKS = [
  { id: 'a.both', title: 'A', area: 'tools-list', sentences: { '2026-07-28': [sentence], '2024-11-05': [sentence] } },
  { id: 'b.modern', title: 'B', area: 'discovery', sentences: { '2026-07-28': [sentence] } },
];
const result = (id: string, status: CheckResult['status']) => ({ id, status }) as CheckResult;

describe('the revision matrix', () => {
  it("a cell shows the most telling of a check's outcomes: fail, then error, warn, pass, skip", () => {
    expect(cellOf([{ status: 'pass' }, { status: 'skip' }])).toBe('pass');
    expect(cellOf([{ status: 'warn' }, { status: 'error' }, { status: 'pass' }])).toBe('error');
    expect(cellOf([{ status: 'error' }, { status: 'fail' }])).toBe('fail');
    expect(cellOf([{ status: 'skip' }])).toBe('skip');
    expect(cellOf([])).toBeUndefined();
  });

  it('has a row per check and a cell per audited revision: n/a where the check has no sentence of that revision', () => {
    const rows = matrixRows(CHECKS, [
      {
        revision: '2026-07-28',
        run: { checks: [result('a.both', 'pass'), result('a.both', 'warn'), result('b.modern', 'fail')] },
      },
      { revision: '2024-11-05', run: { checks: [result('a.both', 'skip'), result('b.modern', 'skip')] } },
    ]);
    expect(rows).toEqual([
      { id: 'a.both', title: 'A', area: 'tools-list', cells: { '2026-07-28': 'warn', '2024-11-05': 'skip' } },
      { id: 'b.modern', title: 'B', area: 'discovery', cells: { '2026-07-28': 'fail', '2024-11-05': 'n/a' } },
    ]);
  });

  it('exits as the worst run: 3 over 1 over 0, and 3 when no revision was audited', () => {
    expect(revisionsExitCode([{ exitCode: 0 }, { exitCode: 1 }])).toBe(1);
    expect(revisionsExitCode([{ exitCode: 1 }, { exitCode: 3 }, { exitCode: 0 }])).toBe(3);
    expect(revisionsExitCode([{ exitCode: 0 }, { exitCode: 0 }])).toBe(0);
    expect(revisionsExitCode([])).toBe(3);
  });
});
