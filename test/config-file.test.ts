import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../src/model/report.js';
import { BUILT, CLI, ROOT, startHttpServer } from './helpers/cli.js';

/** The CLI run in a folder of its own, where it finds mcp-tools-conformance.config.json and package.json. */
function runIn(dir: string, args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
  const report = (outputDir: string) =>
    JSON.parse(readFileSync(join(dir, outputDir, 'report.json'), 'utf8')) as RunReport;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, report };
}

function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-config-'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

describe.skipIf(!BUILT)('config file and package.json key', () => {
  it("package.json's key, under the config file, under the flags", () => {
    const dir = folder({
      'package.json': {
        name: 'my-server',
        'mcp-tools-conformance': {
          'reference-server': true,
          checks: ['discover.*'],
          reporter: 'json',
          'output-dir': 'from-package',
        },
      },
    });
    const fromPackage = runIn(dir, []);
    expect(fromPackage.code, fromPackage.stderr).toBe(0);
    expect(fromPackage.stdout).toBe('');
    expect(new Set(fromPackage.report('from-package').checks.map((c) => c.id.split('.')[0]))).toEqual(
      new Set(['discover']),
    );

    writeFileSync(
      join(dir, 'mcp-tools-conformance.config.json'),
      JSON.stringify({ 'output-dir': 'from-file', checks: 'tools.name.*' }),
    );
    const fromFile = runIn(dir, []);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.report('from-file').checks.every((c) => c.id.startsWith('tools.name.'))).toBe(true);

    const fromFlags = runIn(dir, [
      '--output-dir',
      'from-flags',
      '--checks',
      'cache.server.ttl-nonneg',
      '--reporter',
      'json,markdown',
    ]);
    expect(fromFlags.code, fromFlags.stderr).toBe(0);
    expect(fromFlags.report('from-flags').checks.map((c) => c.id)).toEqual(['cache.server.ttl-nonneg']);
    expect(existsSync(join(dir, 'from-flags', 'summary.md'))).toBe(true);
  });

  it('a header value from ${env:NAME} is sent, and redacted wherever the target echoes it', async () => {
    const server = await startHttpServer(join(ROOT, 'test/fixtures/header-echo-server.mjs'));
    try {
      const dir = folder({
        'mcp-tools-conformance.config.json': {
          url: server.url,
          headers: { Authorization: 'Bearer ${env:MTC_CONFIG_TOKEN}' },
          checks: 'tools.name.*',
          reporter: 'console,json,junit,sarif,markdown,html,github',
        },
      });
      const stepSummary = join(dir, 'step-summary.md');
      const run = runIn(dir, ['--verbose'], { MTC_CONFIG_TOKEN: 'cfg-s3cr3t-t0ken', GITHUB_STEP_SUMMARY: stepSummary });
      expect(run.code, run.stderr).toBe(0);
      const charset = run.report('reports').checks.find((c) => c.id === 'tools.name.charset')!;
      expect(charset.tool).toBe('leak [redacted]');
      expect(run.stdout).toMatch(/^::warning title=tools\.name\.charset::\[leak \[redacted\]\]/m);
      const outputs = [
        ...readdirSync(join(dir, 'reports')).map((name) => [name, readFileSync(join(dir, 'reports', name), 'utf8')]),
        ['stdout', run.stdout],
        ['step summary', readFileSync(stepSummary, 'utf8')],
      ];
      expect(outputs).toHaveLength(7);
      for (const [name, text] of outputs) {
        expect(text, name).not.toContain('s3cr3t');
        expect(text, name).not.toContain('${env:');
      }
    } finally {
      await server.stop();
    }
  });

  it('an env value from ${env:NAME} reaches a stdio target and no report', () => {
    const dir = folder({
      'mcp-tools-conformance.config.json': {
        stdio: `${process.execPath} ${join(ROOT, 'test/fixtures/env-echo-server.mjs')}`,
        env: { MTC_SECRET: '${env:MTC_CONFIG_SECRET}' },
        checks: 'tools.name.charset',
      },
    });
    const run = runIn(dir, ['--reporter', 'json'], { MTC_CONFIG_SECRET: 'env-s3cr3t-from-config' });
    expect(run.report('reports').checks[0]!.tool).toBe('leak [redacted]');
    expect(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')).not.toContain('s3cr3t');
  });

  it.each([
    [
      'a file that is not JSON',
      { 'mcp-tools-conformance.config.json': '{"url": ' },
      [],
      {},
      /config file mcp-tools-conformance\.config\.json is not valid JSON/,
    ],
    [
      'an unknown key',
      { 'package.json': { 'mcp-tools-conformance': { reporters: 'json' } } },
      [],
      {},
      /package\.json "mcp-tools-conformance": unknown option "reporters"/,
    ],
    ['a missing --config file', {}, ['--config', 'nope.json'], {}, /cannot read config file nope\.json: ENOENT/],
    [
      'an unset environment variable',
      { 'c.json': { headers: { Authorization: 'Bearer ${env:MTC_UNSET_TOKEN}' } } },
      ['--config', 'c.json'],
      {},
      /header "Authorization" refers to \$\{env:MTC_UNSET_TOKEN\}, which is unset or empty/,
    ],
  ] as const)('%s is a usage error: exit 2, one line', (_label, files, args, env, message) => {
    const run = runIn(folder(files), [...args], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
