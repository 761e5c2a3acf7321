import { ALL_CHECKS } from '../suites/index.js';
import { readdirSync } from 'node:fs';
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
    expect(run.stderr).toMatch(
      /^mcp-tools-conformance: the target could not be audited: cannot start 'definitely-not-a-command-xyz': ENOENT\n {2}hint: 'definitely-not-a-command-xyz' was not found: is it installed and on PATH/,
    );
    expect(run.report!.checks.every((c) => c.status === 'skip')).toBe(true);
    expect(run.report!.wire.protocolVersion).toBeNull();
  });

  it("a server whose module is missing: the target's own error line reaches stderr and report.json", async () => {
    const run = await runCli(['--stdio', `${process.execPath} /nonexistent/mcp-server.js`]);
    expect(run.code).toBe(3);
    const line = "Error: Cannot find module '/nonexistent/mcp-server.js'";
    expect(run.report!.aborted!.targetStderr).toContain(line);
    expect(run.stderr.split('\n')[0]).toBe(
      'mcp-tools-conformance: the target could not be audited: target exited with code 1',
    );
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
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^Verdict: not audited: none of ${run.report!.checks.length} check\\(s\\) could run in \\d+ ms \\(exit 3\\)$`,
      ),
    );
    // stderr still says why, whatever the reporters.
    expect(run.stderr).toMatch(
      /^mcp-tools-conformance: the target could not be audited: cannot reach the target: ECONNREFUSED/,
    );
  });

  it("a command that does not exist on the console: the reason and the target's command, then the verdict", async () => {
    const run = await runCli(['--stdio', 'definitely-not-a-command-xyz --flag', '--reporter', 'console']);
    expect(run.code).toBe(3);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      "The target could not be audited: cannot start 'definitely-not-a-command-xyz': ENOENT",
      '  target: definitely-not-a-command-xyz --flag',
    ]);
    expect(lines.at(-1)).toMatch(/^Verdict: not audited: .* \(exit 3\)$/);
    expect(lines.length).toBeLessThanOrEqual(6);
  });
});

describe.skipIf(!BUILT)('usage errors: one line, exit 2', () => {
  for (const args of [
    ['--no-such-flag'],
    ['--stdio', 'x', '--url', 'http://127.0.0.1:1/'],
    ['--reporter', 'pdf'],
    ['--timeout', '-5'],
    ['--checks', 'nope.*'],
    ['--url', 'ftp://x'],
    ['--header', 'bad header'],
  ]) {
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
    expect(new Set(run.report!.checks.map((c) => c.id))).toEqual(
      new Set(['cache.server.hints', 'cache.server.ttl-nonneg', 'cache.server.scope-consistent', 'cache.irr-no-hints']),
    );
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

describe.skipIf(!BUILT)('usage errors: one clear line and exit 2; each command its own help', () => {
  const oneLine = (run: Awaited<ReturnType<typeof runCli>>) => {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    return run.stderr.trimEnd();
  };

  it('an empty --reporter: exit 2 before anything starts, no file written', async () => {
    const [audit, fleet] = await Promise.all([
      runCli(['--stdio', referenceCommand(), '--reporter', '']),
      runCli(['fleet', 'test/fixtures/fleet/cases/only-invalid.json', '--reporter', '']),
    ]);
    for (const run of [audit, fleet]) {
      expect(oneLine(run)).toMatch(
        /^mcp-tools-conformance: --reporter needs at least one of console, json, junit, sarif, markdown, html, github, got "" \(see (fleet )?--help\)$/,
      );
      expect(readdirSync(run.outputDir)).toEqual([]);
    }
  });

  it('an unknown option names the one meant', async () => {
    const [typo, inClient] = await Promise.all([
      runCli(['--stdoi', referenceCommand()]),
      runCli(['client', '--comand', 'node c.js']),
    ]);
    expect(oneLine(typo)).toBe('mcp-tools-conformance: Unknown argument: stdoi (did you mean --stdio?) (see --help)');
    expect(oneLine(inClient)).toBe(
      'mcp-tools-conformance: Unknown argument: comand (did you mean --command?) (see client --help)',
    );
  });

  it('fleet --help and client --help list their own options only; --help those of an audit', async () => {
    const [fleet, client, run] = await Promise.all([
      runCli(['fleet', '--help']),
      runCli(['client', '--help']),
      runCli(['--help']),
    ]);
    const listed = (text: string) => [...text.matchAll(/^ {2}(?:-\w, )? *--([\w-]+)/gm)].map((m) => m[1]);
    for (const help of [fleet, client, run]) expect(help.code).toBe(0);
    expect(fleet.stdout).toMatch(/^mcp-tools-conformance fleet \[FILE…\]/);
    expect(listed(fleet.stdout)).toEqual(
      expect.arrayContaining(['jobs', 'shard', 'discover', 'fail-on-unavailable', 'allow-tools', 'reporter', 'help']),
    );
    expect(client.stdout).toMatch(/^mcp-tools-conformance client --command/);
    expect(listed(client.stdout)).toEqual(
      expect.arrayContaining(['command', 'scenario', 'transport', 'checks', 'reporter', 'help']),
    );
    for (const help of [fleet, client]) {
      expect(
        listed(help.stdout).filter((name) =>
          ['stdio', 'url', 'env', 'header', 'cwd', 'from-snapshot', 'reference-server'].includes(name!),
        ),
      ).toEqual([]);
    }
    expect(listed(client.stdout)).not.toContain('jobs');
    expect(listed(fleet.stdout)).not.toContain('command');
    expect(listed(run.stdout)).toEqual(expect.arrayContaining(['stdio', 'url', 'env', 'header', 'reporter']));
    expect(listed(run.stdout).filter((name) => ['jobs', 'discover', 'command', 'scenario'].includes(name!))).toEqual(
      [],
    );
    expect(fleet.stdout).toMatch(/3\s+with --fail-on-unavailable: a server could not be audited/);
  });

  it('client --command with a program not on PATH: exit 3 and the same PATH hint as --stdio, with the console too', async () => {
    const [json, console] = await Promise.all([
      runCli(['client', '--command', 'mtc-no-such-driver --flag', '--max-duration', '20000']),
      runCli(['client', '--command', 'mtc-no-such-driver', '--max-duration', '20000', '--reporter', 'console']),
    ]);
    for (const run of [json, console]) {
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /^mcp-tools-conformance: the client could not be audited: the client command could not be started: spawn mtc-no-such-driver ENOENT\n {2}hint: 'mtc-no-such-driver' was not found: is it installed and on PATH\? Give its full path, or start it through npx\n$/,
      );
    }
  });
});
