import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, referenceCommand, runCli } from './helpers/cli.js';

const oneLineError = (run: Awaited<ReturnType<typeof runCli>>, message: RegExp) => {
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(message);
  expect(run.report).toBeUndefined();
};

describe.skipIf(!BUILT)('exit paths a CI job meets', () => {
  it('no target named and no terminal: exit 2, naming the ways to name one; --reference-server names the bundled server', async () => {
    // In a process of its own, as a user meets it: the bundled CLI's exit code and one line.
    oneLineError(
      await runCli(['--checks', 'discover.*'], { fresh: true }),
      /^mcp-tools-conformance: name a target: --stdio, --url or --from-snapshot \(or --reference-server\)/,
    );
    const run = await runCli(['--reference-server', '--checks', 'discover.*', '--reporter', 'console,json']);
    expect(run.code).toBe(0);
    expect(run.report!.target.command).toContain('reference-server');
    // Asked for by name, so no notice that a default was picked.
    expect(run.stdout).not.toContain('No --stdio or --url given');
    oneLineError(
      await runCli(['--reference-server', '--stdio', referenceCommand()]),
      /reference-server and stdio are mutually exclusive/,
    );
  });

  it('an --output-dir that is a file, or under one, is exit 2 before the audit starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-outdir-'));
    const file = join(dir, 'taken');
    writeFileSync(file, 'x');
    const started = performance.now();
    oneLineError(
      await runCli(['--stdio', referenceCommand('--tool-latency-ms', '2000'), '--output-dir', file]),
      /--output-dir .*taken is a file, not a folder/,
    );
    oneLineError(
      await runCli(['--stdio', referenceCommand(), '--output-dir', join(file, 'sub')]),
      /--output-dir .*taken\/sub cannot be written: (ENOTDIR|EEXIST)/,
    );
    // The slow target was never audited: the check comes first.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a selection that leaves no check is exit 2', async () => {
    oneLineError(
      await runCli(['--stdio', referenceCommand(), '--checks', 'cache.*', '--exclude-checks', 'cache.*']),
      /no check is left to run/,
    );
  });

  it('--fail-on in any case; --color and --no-color; yargs errors on one line', async () => {
    for (const value of ['SHOULD', 'Should']) {
      const run = await runCli(['--stdio', referenceCommand(), '--checks', 'discover.*', '--fail-on', value]);
      expect(run.code).toBe(0);
      expect(run.report!.failOn).toBe('should');
    }
    oneLineError(
      await runCli(['--stdio', referenceCommand(), '--fail-on', 'may']),
      /--fail-on must be must or should, got "may"/,
    );
    oneLineError(
      await runCli(['--stdio', referenceCommand(), '--protocol-version', '2024']),
      /Invalid values: Argument: protocol-version, Given: 2024/,
    );
    const colored = await runCli(
      ['--stdio', referenceCommand(), '--checks', 'discover.*', '--reporter', 'console', '--color'],
      { env: { NO_COLOR: '' } },
    );
    expect(colored.stdout).toContain('\u001b[');
    const plain = await runCli(
      ['--stdio', referenceCommand(), '--checks', 'discover.*', '--reporter', 'console', '--no-color'],
      { env: { NO_COLOR: '', FORCE_COLOR: '1' } },
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('the console ends with one verdict line: the outcome, the findings, the time and the exit code', async () => {
    const failing = await runCli([
      '--stdio',
      referenceCommand('--defect', 'negative-ttl'),
      '--checks',
      'cache.*',
      '--reporter',
      'console,json',
    ]);
    expect(failing.code).toBe(1);
    const fails = failing.report!.summary.fail;
    expect(failing.stdout.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^Verdict: failing: ${fails} fails?, (no|\\d+) warnings? in [\\d.]+ m?s \\(exit 1\\)$`),
    );
    const clean = await runCli([
      '--stdio',
      referenceCommand(),
      '--checks',
      'discover.*',
      '--reporter',
      'console,json',
      '--quiet',
    ]);
    expect(clean.code).toBe(0);
    expect(clean.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^Verdict: conformant: no fails, no warnings in [\d.]+ m?s \(exit 0\)$/,
    );
    expect(clean.stdout.match(/^Verdict:/gm)).toHaveLength(1);
  });

  it('report.json says the verdict, the exit code and the --fail-on it was reached under', async () => {
    const run = await runCli(['--stdio', referenceCommand('--defect', 'negative-ttl'), '--checks', 'cache.*']);
    expect(run.code).toBe(1);
    expect(run.report).toMatchObject({ verdict: 'fail', exitCode: 1, failOn: 'must' });
    const gone = await runCli(['--stdio', 'definitely-not-a-command-xyz'], { fresh: true });
    expect(gone.report).toMatchObject({ verdict: 'aborted', exitCode: 3 });
  });

  it('lock --write <file> takes the file as its value', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mtc-lock-')), 'tools.lock.json');
    const run = await runCli(['lock', '--write', file, '--stdio', referenceCommand()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote ${file}:`);
  });

  it('--help documents exit code 130 for an interrupt', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/130\s+interrupted by SIGINT \(Ctrl-C\), 143 by SIGTERM/);
  });
});
