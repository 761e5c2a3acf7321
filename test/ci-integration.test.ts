import { readFileSync, readdirSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJunit } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { BUILT, ROOT, referenceCommand, runCli, startReferenceHttp } from './helpers/cli.js';

const ALL_FILE_REPORTERS = 'json,junit,sarif,markdown,html';

describe.skipIf(!BUILT)('CI integration: baselines', () => {
  it(
    'baseline --write records the findings; a later run fails only on new ones and names stale entries',
    { timeout: 90_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mtc-baseline-'));
      const file = join(dir, 'baseline.json');
      // The contract's form: baseline --write <file> (lock below keeps the older --write --lock <file>).
      const write = await runCli([
        'baseline',
        '--write',
        file,
        '--stdio',
        referenceCommand('--defect', 'negative-ttl'),
      ]);
      expect(write.code).toBe(0);
      expect(write.stdout).toContain('1 known finding(s)');
      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(written.entries.map((e: { check: string }) => e.check)).toEqual(['cache.server.ttl-nonneg']);
      // Each entry names the revision it was found on: it matches findings of that revision only.
      expect(written.entries[0].revision).toBe('2026-07-28');

      const same = await runCli([
        '--stdio',
        referenceCommand('--defect', 'negative-ttl'),
        '--baseline',
        file,
        '--reporter',
        ALL_FILE_REPORTERS,
      ]);
      expect(same.code).toBe(0);
      expect(same.report!.baseline).toMatchObject({ known: 1, new: 0, stale: [] });
      expect(same.report).toMatchObject({ verdict: 'pass', exitCode: 0, failOn: 'must' });
      expect(same.report!.checks.find((c) => c.id === 'cache.server.ttl-nonneg')).toMatchObject({
        status: 'fail',
        baselined: true,
      });
      const junit = await parseJunit(readFileSync(join(same.outputDir, 'junit.xml'), 'utf8'));
      expect(junit?.failures).toBe(0);
      const sarif = JSON.parse(readFileSync(join(same.outputDir, 'report.sarif'), 'utf8'));
      expect(
        sarif.runs[0].results.map((r: { ruleId: string; baselineState: string }) => [r.ruleId, r.baselineState]),
      ).toEqual([['cache.server.ttl-nonneg', 'unchanged']]);

      const worse = await runCli([
        '--stdio',
        referenceCommand('--defect', 'negative-ttl', '--defect', 'no-cache-hints'),
        '--baseline',
        file,
      ]);
      expect(worse.code).toBe(1);
      expect(worse.report!.baseline).toMatchObject({ known: 1, new: 1 });
      expect(worse.report).toMatchObject({ verdict: 'fail', exitCode: 1 });

      const fixed = await runCli(['--stdio', referenceCommand(), '--baseline', file, '--reporter', 'console,json']);
      expect(fixed.code).toBe(0);
      expect(fixed.report!.baseline!.stale.map((e) => e.check)).toEqual(['cache.server.ttl-nonneg']);
      expect(fixed.stdout).toMatch(/stale \(now passing; remove from the baseline\): cache\.server\.ttl-nonneg/);

      const strict = await runCli(['--stdio', referenceCommand(), '--baseline', file, '--fail-on-stale']);
      expect(strict.code).toBe(1);
      expect(strict.report).toMatchObject({ verdict: 'fail', exitCode: 1 });
      expect(strict.stderr).toBe(
        'mcp-tools-conformance: --fail-on-stale: 1 baseline entry no longer fails: cache.server.ttl-nonneg\n',
      );
    },
  );

  it('a file that is not a baseline is a usage error', async () => {
    const run = await runCli(['--stdio', referenceCommand(), '--baseline', join(ROOT, 'package.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a mcp-tools-conformance\/baseline version 1 file/);
  });
});

describe.skipIf(!BUILT)('CI integration: tool-set locks', () => {
  it(
    'lock --write hashes the tools; a changed tool set fails the run with a diff; an unchanged one passes',
    { timeout: 90_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mtc-lock-'));
      const file = join(dir, 'tools.lock.json');
      const write = await runCli(['lock', '--write', '--lock', file, '--stdio', referenceCommand()]);
      expect(write.code).toBe(0);
      expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).tools)).toHaveLength(11);

      const same = await runCli(['--stdio', referenceCommand(), '--lock', file, '--checks', 'tools.list.*']);
      expect(same.code).toBe(0);
      expect(same.report!.lock).toEqual({ file, status: 'match', added: [], removed: [], changed: [] });

      const changed = await runCli([
        '--stdio',
        referenceCommand('--defect', 'annotation-not-boolean', '--defect', 'tool-name-with-space'),
        '--lock',
        file,
        '--checks',
        'tools.list.*',
        '--reporter',
        'console,json,markdown',
      ]);
      expect(changed.code).toBe(1);
      expect(changed.report!.lock).toMatchObject({
        status: 'changed',
        added: ['get forecast'],
        removed: [],
        changed: [{ tool: 'get_weather', fields: ['annotations'] }],
      });
      expect(changed.stdout).toContain('Tool lock');
      expect(changed.stdout).toContain('~get_weather (annotations)');
      expect(readFileSync(join(changed.outputDir, 'summary.md'), 'utf8')).toMatch(
        /Tool lock .* changed:\*\* added `get forecast`; changed `get_weather` \(annotations\)/,
      );
    },
  );

  it('no header value enters the lock', async () => {
    const server = await startReferenceHttp();
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'mtc-lock-')), 'tools.lock.json');
      const run = await runCli([
        'lock',
        '--write',
        '--lock',
        file,
        '--url',
        server.url,
        '--header',
        'Authorization: Bearer lock-s3cr3t-value',
      ]);
      expect(run.code).toBe(0);
      expect(readFileSync(file, 'utf8')).not.toContain('lock-s3cr3t-value');
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!BUILT)('CI integration: secrets never reach any report format', () => {
  const everyWrittenFile = (dir: string) =>
    readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')] as const);

  it('--header values (HTTP), in every format', async () => {
    const server = await startReferenceHttp('--defect', 'negative-ttl');
    try {
      const run = await runCli([
        '--url',
        server.url,
        '--header',
        'Authorization: Bearer hdr-s3cr3t-t0ken',
        '--header',
        'X-Api-Key: k3y-0f-the-user',
        '--reporter',
        `console,github,${ALL_FILE_REPORTERS}`,
      ]);
      expect(run.code).toBe(1);
      const files = everyWrittenFile(run.outputDir);
      expect(files.map(([name]) => name).sort()).toEqual([
        'junit.xml',
        'report.html',
        'report.json',
        'report.sarif',
        'summary.md',
      ]);
      for (const [name, text] of [...files, ['stdout', run.stdout] as const, ['stderr', run.stderr] as const]) {
        expect(text, name).not.toContain('hdr-s3cr3t-t0ken');
        expect(text, name).not.toContain('k3y-0f-the-user');
      }
    } finally {
      await server.stop();
    }
  });

  it('--env values, even when the target echoes them back, in every format', async () => {
    const target = `${process.execPath} ${join(ROOT, 'test/fixtures/env-echo-server.mjs')}`;
    const run = await runCli([
      '--stdio',
      target,
      '--env',
      'MTC_SECRET=env-s3cr3t-value',
      '--reporter',
      `console,${ALL_FILE_REPORTERS}`,
      '--verbose',
    ]);
    const charset = run.report!.checks.find((c) => c.id === 'tools.name.charset')!;
    expect(['fail', 'warn']).toContain(charset.status);
    expect(charset.message).toContain('[redacted]');
    for (const [name, text] of [...everyWrittenFile(run.outputDir), ['stdout', run.stdout] as const]) {
      expect(text, name).not.toContain('env-s3cr3t-value');
    }
  });
});

describe.skipIf(!BUILT)('CI integration: JUnit read by a consumer library', () => {
  it('junit2json reads the file: counts match the report, names are area › requirement › title', async () => {
    const run = await runCli([
      '--stdio',
      referenceCommand('--defect', 'negative-ttl', '--defect', 'no-server-info'),
      '--reporter',
      'json,junit',
    ]);
    const parsed = await parseJunit(readFileSync(join(run.outputDir, 'junit.xml'), 'utf8'));
    const summary = run.report!.summary;
    expect(parsed?.tests).toBe(run.report!.checks.length);
    expect(parsed?.failures).toBe(summary.fail);
    expect(parsed?.errors).toBe(summary.error);
    const cases = (parsed?.testsuite ?? []).flatMap((suite) => suite.testcase ?? []);
    expect(cases).toHaveLength(run.report!.checks.length);
    const failing = cases.filter((c) => (c.failure ?? []).length > 0).map((c) => c.name);
    expect(failing).toEqual([expect.stringMatching(/^caching › cache\.server\.ttl-nonneg › /)]);
    expect(cases.filter((c) => (c.skipped ?? []).length > 0)).toHaveLength(summary.skip);
  });
});
