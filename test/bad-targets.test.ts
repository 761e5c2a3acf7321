import { ALL_CHECKS } from '../suites/index.js';
import { describe, expect, it } from 'vitest';
import { BUILT, referenceCommand, runCli, startReferenceHttp } from './helpers/cli.js';

describe.skipIf(!BUILT)('broken targets end in a report that blames the target', () => {
  const assertAbortedDuringWalk = (run: Awaited<ReturnType<typeof runCli>>, reason: RegExp) => {
    expect(run.code).toBe(3);
    const report = run.report!;
    expect(report.aborted?.reason).toMatch(reason);
    const errors = report.checks.filter((c) => c.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => e.id)).toContain(report.aborted!.duringCheck);
    const notRun = report.checks.filter((c) => c.status === 'skip' && c.message.startsWith('not run'));
    expect(notRun.length).toBeGreaterThan(0);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
  };

  // Hangs, garbage, an exit after discover and wrong ids over stdio: test/chaos.test.ts (with the whole chaos fleet).

  it('a command that does not exist: exit 3 with a report, no stack trace', async () => {
    const run = await runCli(['--stdio', 'definitely-not-a-command-xyz --flag']);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toMatch(/cannot start 'definitely-not-a-command-xyz': ENOENT/);
    // Said on stderr whatever the reporters (here json alone), with a hint.
    expect(run.stderr).toMatch(/^mcp-tools-conformance: the target could not be audited: cannot start 'definitely-not-a-command-xyz': ENOENT\n {2}hint: 'definitely-not-a-command-xyz' was not found: is it installed and on PATH/);
    expect(run.report!.checks.every((c) => c.status === 'skip')).toBe(true);
    expect(run.report!.wire.protocolVersion).toBeNull();
  });

  it("a server whose module is missing: the target's own error line reaches stderr and report.json", async () => {
    const run = await runCli(['--stdio', `${process.execPath} /nonexistent/mcp-server.js`]);
    expect(run.code).toBe(3);
    const line = "Error: Cannot find module '/nonexistent/mcp-server.js'";
    expect(run.report!.aborted!.targetStderr).toContain(line);
    expect(run.stderr.split('\n')[0]).toBe('mcp-tools-conformance: the target could not be audited: target exited with code 1');
    expect(run.stderr).toContain(`  target stderr: ${line}`);
  });

  it('a command that exits at once: exit 3', async () => {
    const run = await runCli(['--stdio', `${process.execPath} -e process.exit(4)`]);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toMatch(/exited/);
  });

  it('over HTTP, a target that never answers tools/list: exit 3 near the timeout', async () => {
    const server = await startReferenceHttp('--defect', 'hang-on-list');
    try {
      const run = await runCli(['--url', server.url, '--timeout', '2000'], { timeoutMs: 25_000 });
      assertAbortedDuringWalk(run, /within 2000 ms|timed out|timeout/i);
      expect(run.wallMs).toBeLessThan(12_000);
    } finally {
      await server.stop();
    }
  });

  it('over HTTP, a response with the wrong id: exit 3', async () => {
    const server = await startReferenceHttp('--defect', 'wrong-id-on-list');
    try {
      assertAbortedDuringWalk(await runCli(['--url', server.url]), /id/);
    } finally {
      await server.stop();
    }
  });

  it('an unreachable URL: exit 3', async () => {
    const run = await runCli(['--url', 'http://127.0.0.1:9/mcp', '--timeout', '2000']);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toMatch(/cannot reach the target/);
  });

  it('an unreachable URL on the console: the reason first, a few lines without tables, then the verdict', async () => {
    const run = await runCli(['--url', 'http://127.0.0.1:9/mcp', '--timeout', '2000', '--reporter', 'console,json']);
    expect(run.code).toBe(3);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^The target could not be audited: cannot reach the target: ECONNREFUSED/);
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(run.stdout).not.toMatch(/By keyword|Skipped:|Summary:|Wire:/);
    expect(lines).toContain(`  ${run.report!.checks.length} check(s) not run (--verbose lists them)`);
    expect(lines.at(-1)).toMatch(new RegExp(`^Verdict: not audited: none of ${run.report!.checks.length} check\\(s\\) could run in \\d+ ms \\(exit 3\\)$`));
    // stderr still says why, whatever the reporters.
    expect(run.stderr).toMatch(/^mcp-tools-conformance: the target could not be audited: cannot reach the target: ECONNREFUSED/);
  });

  it("a command that does not exist on the console: the reason and the target's command, then the verdict", async () => {
    const run = await runCli(['--stdio', 'definitely-not-a-command-xyz --flag', '--reporter', 'console']);
    expect(run.code).toBe(3);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(["The target could not be audited: cannot start 'definitely-not-a-command-xyz': ENOENT", '  target: definitely-not-a-command-xyz --flag']);
    expect(lines.at(-1)).toMatch(/^Verdict: not audited: .* \(exit 3\)$/);
    expect(lines.length).toBeLessThanOrEqual(6);
  });
});

describe.skipIf(!BUILT)('usage errors: one line, exit 2', () => {
  for (const args of [['--no-such-flag'], ['--stdio', 'x', '--url', 'http://127.0.0.1:1/'], ['--reporter', 'pdf'], ['--timeout', '-5'], ['--checks', 'nope.*'], ['--url', 'ftp://x'], ['--header', 'bad header']]) {
    it(args.join(' '), async () => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^mcp-tools-conformance: /);
      expect(run.report).toBeUndefined();
    });
  }
});

describe.skipIf(!BUILT)('catalog and selection', () => {
  it('--list prints every check with its keyword', async () => {
    const run = await runCli(['--list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/discover\.must-implement\s+MUST/);
    expect(run.stdout).toMatch(/tools\.name\.unique\s+SHOULD/);
    // Columns fit their widest cell, so the titles of every row start where the TITLE heading does.
    const lines = run.stdout.trimEnd().split('\n').slice(0, -1);
    const titleAt = lines[0]!.indexOf('TITLE');
    const rows = lines.slice(1).map((line) => [...ALL_CHECKS].find((c) => line.startsWith(`${c.id} `))!);
    expect(lines.slice(1).filter((line, i) => line.indexOf(rows[i]!.title) !== titleAt)).toEqual([]);
  });

  it('--checks with a glob runs only the matching checks', async () => {
    const run = await runCli(['--stdio', referenceCommand(), '--checks', 'cache.*']);
    expect(run.code).toBe(0);
    expect(new Set(run.report!.checks.map((c) => c.id))).toEqual(new Set(['cache.server.hints', 'cache.server.ttl-nonneg', 'cache.server.scope-consistent', 'cache.irr-no-hints']));
  });

  it('--exclude-checks removes checks', async () => {
    const run = await runCli(['--stdio', referenceCommand(), '--exclude-checks', 'cache.*,discover.serverinfo']);
    const ids = run.report!.checks.map((c) => c.id);
    expect(ids.some((id) => id.startsWith('cache.'))).toBe(false);
    expect(ids).not.toContain('discover.serverinfo');
    expect(ids).toContain('discover.must-implement');
  });

  it('--help documents the exit codes; --version prints the version', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/3\s+the target could not be audited/);
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
