import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_REPORT } from '../report/run-report.fixture.js';
import type { RunReport } from '../model/report.js';
import type { CheckResult } from '../model/check.js';
import { applyBaseline, baselineFrom, BASELINE_FORMAT, BaselineError, readBaseline, writeBaseline } from './baseline.js';

const result = (id: string, status: CheckResult['status'], tool?: string): CheckResult => ({
  id,
  title: id,
  keyword: 'MUST',
  keywordText: 'MUST',
  area: 'a',
  specRef: 'server/tools',
  status,
  message: `${id} ${status}`,
  evidence: [],
  durationMs: 1,
  ...(tool !== undefined ? { tool } : {}),
});

const reportOf = (checks: CheckResult[]): RunReport => ({ ...RUN_REPORT, checks });

describe('baselines', () => {
  it('records every fail and warn once, by check and tool, sorted', () => {
    const file = baselineFrom(reportOf([result('b.check', 'fail', 'x'), result('a.check', 'warn'), result('b.check', 'fail', 'x'), result('c.check', 'pass')]));
    expect(file.format).toBe(BASELINE_FORMAT);
    expect(file.entries.map((e) => [e.check, e.tool, e.status])).toEqual([
      ['a.check', undefined, 'warn'],
      ['b.check', 'x', 'fail'],
    ]);
  });

  it('marks known findings, counts new ones, and sorts listed entries into stale and unconfirmed', () => {
    const baseline = baselineFrom(
      reportOf([result('known', 'fail', 't1'), result('fixed', 'fail'), result('skipped-now', 'warn'), result('other-tool', 'fail', 't1')]),
    );
    const now = applyBaseline(
      reportOf([result('known', 'fail', 't1'), result('fixed', 'pass'), result('skipped-now', 'skip'), result('other-tool', 'fail', 't2'), result('brand-new', 'warn')]),
      baseline,
      'b.json',
    );
    expect(now.checks.filter((c) => c.baselined).map((c) => c.id)).toEqual(['known']);
    expect(now.baseline).toMatchObject({ file: 'b.json', known: 1, new: 2 });
    expect(now.baseline!.stale.map((e) => e.check)).toEqual(['fixed']);
    expect(now.baseline!.unconfirmed.map((e) => e.check)).toEqual(['other-tool', 'skipped-now']);
  });

  it('reads back what it writes and rejects files that are not baselines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    const path = join(dir, 'b.json');
    const written = await writeBaseline(path, reportOf([result('x', 'fail')]));
    expect(await readBaseline(path)).toEqual(written);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ entries: [] }));
    await expect(readBaseline(join(dir, 'bad.json'))).rejects.toThrow(BaselineError);
    writeFileSync(join(dir, 'bad2.json'), JSON.stringify({ format: BASELINE_FORMAT, version: 1, entries: [{ tool: 'x' }] }));
    await expect(readBaseline(join(dir, 'bad2.json'))).rejects.toThrow(/string "check"/);
    await expect(readBaseline(join(dir, 'missing.json'))).rejects.toThrow(/cannot read baseline/);
  });
});
