import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILT, CLI, REFERENCE, ROOT, referenceCommand } from './helpers/cli.js';

interface Action {
  runs: { using: string; steps: { id: string; shell: string; env: Record<string, string>; run: string }[] };
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const step = action.runs.steps[0]!;

/** Runs the action's script as the runner would, with `npx` replaced by a shim that runs the built CLI. */
function runAction(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-action-'));
  const bin = join(dir, 'bin');
  spawnSync('mkdir', [bin]);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\necho "$@" > "${join(dir, 'npx-args')}"\nshift 2\nexec "${process.execPath}" "${CLI}" "$@"\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, NO_COLOR: '1' };
  for (const [name, value] of Object.entries(step.env)) {
    const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)![1]!;
    env[name] = inputs[input] ?? action.inputs[input]!.default ?? '';
  }
  env.GITHUB_STEP_SUMMARY = join(dir, 'step-summary.md');
  env.GITHUB_OUTPUT = join(dir, 'github-output');
  const result = spawnSync('bash', ['-c', step.run], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, dir, read };
}

describe('GitHub Action (action.yml)', () => {
  it('is a composite action whose inputs all reach the script as environment variables', () => {
    expect(action.runs.using).toBe('composite');
    expect(step.shell).toBe('bash');
    expect(step.run).not.toMatch(/\$\{\{/);
    const referenced = Object.values(step.env).map((v) => /inputs\.([\w-]+)/.exec(v)![1]);
    expect(referenced.sort()).toEqual(Object.keys(action.inputs).sort());
    expect(action.inputs.version!.default).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'output-dir', 'sarif']);
  });

  it.skipIf(!BUILT)(
    'audits a target, fails on a failure, annotates it, fills the step summary and the outputs, uploads nothing',
    { timeout: 90_000 },
    () => {
      const run = runAction({ stdio: referenceCommand('--defect', 'negative-ttl'), args: '--timeout 20000' });
      expect(run.code, run.stderr).toBe(1);
      expect(run.read('npx-args')).toMatch(
        /^--yes mcp-tools-conformance@0\.1\.0 --reporter console,json,junit,sarif,markdown,html,github --output-dir mcp-conformance --fail-on must --stdio .* --timeout 20000\n$/,
      );
      expect(run.stdout.split('\n').filter((l) => l.startsWith('::error '))).toEqual([
        expect.stringMatching(/^::error title=cache\.server\.ttl-nonneg::.*ttlMs/),
      ]);
      expect(run.read('step-summary.md')).toMatch(/^## MCP tools conformance .*❌ 1 failure/);
      expect(run.read('github-output')).toBe('exit-code=1\nsarif=mcp-conformance/report.sarif\n');
      for (const file of ['report.json', 'junit.xml', 'report.sarif', 'summary.md', 'report.html']) {
        expect(existsSync(join(run.dir, 'mcp-conformance', file)), file).toBe(true);
      }
    },
  );

  it.skipIf(!BUILT)(
    'the github reporter is added once and writes the step summary, unless step-summary is false',
    { timeout: 60_000 },
    () => {
      const run = runAction({ stdio: referenceCommand(), reporters: 'json,github', args: '--checks discover.*' });
      expect(run.code, run.stderr).toBe(0);
      expect(run.read('npx-args')).toMatch(/ --reporter json,github --output-dir /);
      expect(run.read('step-summary.md')).toMatch(/^## MCP tools conformance .*✅ no failures/);
      const off = runAction({
        stdio: referenceCommand(),
        reporters: 'json',
        'step-summary': 'false',
        args: '--checks discover.*',
      });
      expect(off.code, off.stderr).toBe(0);
      expect(off.read('npx-args')).toMatch(/ --reporter json,github --output-dir /);
      expect(off.read('step-summary.md')).toBe('');
    },
  );

  it.skipIf(!BUILT)(
    'fleet: audits every server of the host files, writes the fleet reports without annotations, and goes ' +
      'without stdio or url',
    { timeout: 60_000 },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'mtc-action-fleet-'));
      const file = join(dir, 'mcp.json');
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: {
            ref: { command: process.execPath, args: [REFERENCE] },
            broken: { command: process.execPath, args: [REFERENCE, '--defect', 'input-schema-not-object'] },
          },
        }),
      );
      const other = join(dir, 'other.json');
      writeFileSync(other, JSON.stringify({ mcpServers: { again: { command: process.execPath, args: [REFERENCE] } } }));
      // Files on lines of their own, as a YAML block gives them, and spaces.
      const run = runAction({
        fleet: `${file}\n  ${other}\n`,
        args: '--checks tools.schema.input-valid-object --jobs 2',
      });
      expect(run.code, run.stderr).toBe(1);
      expect(run.read('npx-args')).toBe(
        `--yes mcp-tools-conformance@0.1.0 fleet ${file} ${other} --reporter ` +
          `console,json,junit,sarif,markdown,html --output-dir mcp-conformance --fail-on must --checks ` +
          `tools.schema.input-valid-object --jobs 2\n`,
      );
      const report = JSON.parse(run.read('mcp-conformance/fleet.json')) as {
        servers: { name: string; outcome: string }[];
      };
      expect(report.servers.map((s) => [s.name, s.outcome])).toEqual([
        ['ref', 'conformant'],
        ['broken', 'failing'],
        ['again', 'conformant'],
      ]);
      // The fleet's summary.md is the job summary, as the github reporter's is a single audit's.
      expect(run.read('step-summary.md')).toBe(run.read('mcp-conformance/summary.md'));
      expect(run.read('step-summary.md')).toContain('broken');
      for (const written of [
        'junit.xml',
        'report.sarif',
        'summary.md',
        'report.html',
        'servers/ref/report.html',
        'servers/broken/report.json',
      ]) {
        expect(existsSync(join(run.dir, 'mcp-conformance', written)), written).toBe(true);
      }
      expect(run.read('github-output')).toBe('exit-code=1\nsarif=mcp-conformance/report.sarif\n');
      const both = runAction({ fleet: file, stdio: referenceCommand() });
      expect(both.code).toBe(2);
      expect(both.stdout).toContain('::error::fleet goes without stdio, url and baseline');
      const off = runAction({
        fleet: file,
        'step-summary': 'false',
        reporters: 'json,markdown',
        args: '--checks tools.schema.input-valid-object',
      });
      expect(off.code, off.stderr).toBe(1);
      expect(off.read('step-summary.md')).toBe('');
    },
  );

  it.skipIf(!BUILT)(
    'fleet with lock: the file is the fleet lock every server is compared with (--lock)',
    { timeout: 60_000 },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'mtc-action-fleet-lock-'));
      const file = join(dir, 'mcp.json');
      writeFileSync(file, JSON.stringify({ mcpServers: { ref: { command: process.execPath, args: [REFERENCE] } } }));
      // A single server's lock is not a fleet lock: refused before any server starts, which shows the flag reached the
      // fleet.
      const single = join(dir, 'tools.lock.json');
      writeFileSync(
        single,
        JSON.stringify({ format: 'mcp-tools-conformance/tool-lock', version: 1, createdAt: 'then', tools: {} }),
      );
      const run = runAction({ fleet: file, lock: single });
      expect(run.read('npx-args')).toMatch(new RegExp(` fleet ${file} .* --lock ${single}\\n$`));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('is the lock of one server');
    },
  );

  it.skipIf(!BUILT)('an input cannot inject shell code, and stdio with url is refused', { timeout: 60_000 }, () => {
    const marker = join(tmpdir(), `mtc-pwned-${process.pid}`);
    const run = runAction({ stdio: referenceCommand(), args: `; touch ${marker} $(touch ${marker})` });
    expect(existsSync(marker)).toBe(false);
    expect(run.code).toBe(2);
    const both = runAction({ stdio: referenceCommand(), url: 'http://127.0.0.1:1/mcp' });
    expect(both.code).toBe(2);
    expect(both.stdout).toContain('::error::give either stdio or url, not both');
  });
});
