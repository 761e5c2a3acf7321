import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_REPORT } from '../report/run-report.fixture.js';
import type { RunReport } from '../model/report.js';
import type { CheckResult } from '../model/check.js';
import type { Revision } from '../core/revision.js';
import {
  applyBaseline,
  baselineFrom,
  BASELINE_FORMAT,
  BaselineError,
  readBaseline,
  writeBaseline,
} from './baseline.js';

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

const reportOf = (checks: CheckResult[], revision: Revision = '2026-07-28'): RunReport => ({
  ...RUN_REPORT,
  wire: { protocolVersion: revision, reason: 'test' },
  checks,
});

describe('baselines', () => {
  it('records every fail and warn once, by check and tool, sorted', () => {
    const file = baselineFrom(
      reportOf([
        result('b.check', 'fail', 'x'),
        result('a.check', 'warn'),
        result('b.check', 'fail', 'x'),
        result('c.check', 'pass'),
      ]),
    );
    expect(file.format).toBe(BASELINE_FORMAT);
    expect(file.entries.map((e) => [e.check, e.tool, e.status])).toEqual([
      ['a.check', undefined, 'warn'],
      ['b.check', 'x', 'fail'],
    ]);
  });

  it('marks known findings, counts new ones, and sorts listed entries into stale and unconfirmed', () => {
    const baseline = baselineFrom(
      reportOf([
        result('known', 'fail', 't1'),
        result('fixed', 'fail'),
        result('skipped-now', 'warn'),
        result('other-tool', 'fail', 't1'),
      ]),
    );
    const now = applyBaseline(
      reportOf([
        result('known', 'fail', 't1'),
        result('fixed', 'pass'),
        result('skipped-now', 'skip'),
        result('other-tool', 'fail', 't2'),
        result('brand-new', 'warn'),
      ]),
      baseline,
      'b.json',
    );
    expect(now.checks.filter((c) => c.baselined).map((c) => c.id)).toEqual(['known']);
    expect(now.baseline).toMatchObject({ file: 'b.json', known: 1, new: 2 });
    expect(now.baseline!.stale.map((e) => e.check)).toEqual(['fixed']);
    expect(now.baseline!.unconfirmed.map((e) => e.check)).toEqual(['other-tool', 'skipped-now']);
  });

  it('names the revision each finding was recorded on: an entry matches findings of that revision only', () => {
    const file = baselineFrom(
      reportOf([result('a.check', 'fail', 't')], '2025-03-26'),
      reportOf([result('a.check', 'fail', 't'), result('b.check', 'warn')], '2025-11-25'),
    );
    expect(file.entries.map((e) => [e.check, e.revision])).toEqual([
      ['a.check', '2025-03-26'],
      ['a.check', '2025-11-25'],
      ['b.check', '2025-11-25'],
    ]);
    const onlyOlder = { ...file, entries: file.entries.filter((e) => e.revision === '2025-03-26') };
    const newer = applyBaseline(
      reportOf([result('a.check', 'fail', 't'), result('b.check', 'pass')], '2025-11-25'),
      onlyOlder,
      'b.json',
    );
    expect(newer.checks.filter((c) => c.baselined)).toEqual([]);
    // The other revision's entry is no business of this run: neither stale nor unconfirmed here.
    expect(newer.baseline).toMatchObject({ known: 0, new: 1, stale: [], unconfirmed: [] });
    const older = applyBaseline(reportOf([result('a.check', 'fail', 't')], '2025-03-26'), file, 'b.json');
    expect(older.checks[0]).toMatchObject({ baselined: true });
    expect(older.baseline).toMatchObject({ known: 1, new: 0, stale: [], unconfirmed: [] });
  });

  it('keeps old baselines working: an entry without a revision matches findings of any revision', () => {
    const old = {
      format: BASELINE_FORMAT,
      version: 1 as const,
      createdAt: '2026-01-01T00:00:00Z',
      entries: [{ check: 'a.check', tool: 't' }, { check: 'gone' }],
    };
    for (const revision of ['2024-11-05', '2026-07-28'] as const) {
      const run = applyBaseline(
        reportOf([result('a.check', 'warn', 't'), result('gone', 'pass')], revision),
        old,
        'old.json',
      );
      expect(run.checks[0], revision).toMatchObject({ baselined: true });
      expect(
        run.baseline!.stale.map((e) => e.check),
        revision,
      ).toEqual(['gone']);
    }
  });

  it('reads back what it writes and rejects files that are not baselines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    const path = join(dir, 'b.json');
    const written = await writeBaseline(path, reportOf([result('x', 'fail')]));
    expect(await readBaseline(path)).toEqual(written);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ entries: [] }));
    await expect(readBaseline(join(dir, 'bad.json'))).rejects.toThrow(BaselineError);
    writeFileSync(
      join(dir, 'bad2.json'),
      JSON.stringify({ format: BASELINE_FORMAT, version: 1, entries: [{ tool: 'x' }] }),
    );
    await expect(readBaseline(join(dir, 'bad2.json'))).rejects.toThrow(/string "check"/);
    await expect(readBaseline(join(dir, 'missing.json'))).rejects.toThrow(/cannot read baseline/);
    writeFileSync(
      join(dir, 'bad3.json'),
      JSON.stringify({ format: BASELINE_FORMAT, version: 1, entries: [{ check: 'x', revision: '2025-13-01' }] }),
    );
    await expect(readBaseline(join(dir, 'bad3.json'))).rejects.toThrow(
      /"revision" must be one of the revisions this tool knows, got "2025-13-01"/,
    );
  });
});
