import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createReporter, isReporterName, REPORTER_NAMES } from './index.js';
import { RUN_REPORT } from './run-report.fixture.js';

describe('reporter map', () => {
  it('knows exactly the implemented names', () => {
    expect(REPORTER_NAMES).toEqual(['console', 'json', 'junit', 'sarif', 'markdown', 'html', 'github']);
    expect(isReporterName('junit')).toBe(true);
    expect(isReporterName('sarif')).toBe(true);
    expect(isReporterName('pdf')).toBe(false);
    expect(isReporterName('toString')).toBe(false);
  });

  it('creates each reporter; file reporters return their paths, console and github write to their stream', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const dir = await mkdtemp(join(tmpdir(), 'report-index-'));
    try {
      const stream = new PassThrough();
      let printed = '';
      stream.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
      const written: string[] = [];
      for (const name of REPORTER_NAMES) {
        const reporter = createReporter(name, { stream, color: false, writtenPaths: () => written });
        expect(reporter.name).toBe(name);
        const path = await reporter.finish(RUN_REPORT, dir);
        if (path !== undefined) written.push(path);
      }
      expect(written).toEqual([
        join(dir, 'report.json'),
        join(dir, 'junit.xml'),
        join(dir, 'report.sarif'),
        join(dir, 'summary.md'),
        join(dir, 'report.html'),
      ]);
      expect(printed).toContain('Summary: 6 check outcome(s)');
      expect(printed).toMatch(/^::error title=/m);
    } finally {
      vi.unstubAllEnvs();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
