import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../src/model/report.js';
import type { Exchange } from '../src/model/exchange.js';
import { startCanary } from './helpers/canary.js';
import { BUILT, ROOT, referenceCommand, runCli, startHttpServer, type CliRun } from './helpers/cli.js';
import { isAlive } from './helpers/processes.js';

/**
 * The chaos fleet: test/fixtures/chaos-server.mjs (a flag per behaviour) and the reference server's chaos defects.
 * Every run must end within its bound, blame the target in its report (and name the check that was running), exit
 * with the documented code, and leave no process or connection behind. Every CLI runs with
 * --unhandled-rejections=strict, so a promise we forgot would crash it (and fail the exit-code assertion).
 */
const FIXTURE = join(ROOT, 'test/fixtures/chaos-server.mjs');
const FS_SPY = join(ROOT, 'test/fixtures/fs-spy.mjs');
const STRICT = '--unhandled-rejections=strict';

interface Scene {
  /** Unique per test: it is in every target command line, so leftover processes can be found by it. */
  dir: string;
}

function scene(): Scene {
  return { dir: mkdtempSync(join(tmpdir(), 'mtc-chaos-')) };
}

function chaosCommand(s: Scene, ...flags: string[]): string {
  // Its own heap limit: a test may give the CLI a small one through NODE_OPTIONS, and the fixture builds 50 MB answers.
  return [process.execPath, '--max-old-space-size=1024', FIXTURE, '--pid-file', join(s.dir, 'pids'), ...flags].join(
    ' ',
  );
}

function referenceChaos(s: Scene, defect: string): string {
  return referenceCommand('--defect', defect, '--log-arrivals', join(s.dir, 'arrivals'));
}

/** Live processes whose command line contains the scene's folder (pgrep only looks; nothing is killed here). */
function leftovers(s: Scene, except: readonly number[] = []): number[] {
  let out: string;
  try {
    out = execFileSync('pgrep', ['-f', s.dir], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => pid !== process.pid && !except.includes(pid) && isAlive(pid));
}

async function expectNoLeftovers(s: Scene, except: readonly number[] = []): Promise<void> {
  for (const until = Date.now() + 3000; leftovers(s, except).length > 0 && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 100));
  expect(leftovers(s, except), 'processes outlived the audit').toEqual([]);
  if (existsSync(join(s.dir, 'pids'))) {
    const started = readFileSync(join(s.dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
    expect(started.length).toBeGreaterThan(0);
    expect(started.filter((pid) => !except.includes(pid) && isAlive(pid))).toEqual([]);
  }
}

/** TCP connections in state ESTABLISHED with `port` at either end (IPv4 and IPv6 tables). */
function establishedOn(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) => {
    if (!existsSync(table)) return [];
    return readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f.length > 3 && f[3] === '01' && (f[1]!.endsWith(`:${hex}`) || f[2]!.endsWith(`:${hex}`)))
      .map((f) => `${f[1]} -> ${f[2]}`);
  });
}

async function expectNoConnections(url: string): Promise<void> {
  const port = Number(new URL(url).port);
  for (const until = Date.now() + 3000; establishedOn(port).length > 0 && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 100));
  expect(establishedOn(port), 'connections to the target left open').toEqual([]);
}

async function audit(
  args: string[],
  options: { timeoutMs?: number; nodeOptions?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  const nodeOptions = [STRICT, ...(options.nodeOptions ?? [])].join(' ');
  return runCli(args, { timeoutMs: options.timeoutMs ?? 30_000, env: { NODE_OPTIONS: nodeOptions, ...options.env } });
}

/** The documented exit code, a report, no stack trace or internal error on stderr. */
function expectCleanEnd(run: CliRun, exit: number): RunReport {
  expect(run.code, `stderr: ${run.stderr}`).toBe(exit);
  expect(run.report, run.stderr).toBeDefined();
  expect(run.stderr).not.toMatch(/internal error|at .*\.js:\d+|Unhandled|ERR_UNHANDLED_REJECTION/);
  return run.report!;
}

/** The flood is log messages nobody asked for (no logLevel in any request's _meta): reported, not only survived. */
function expectFloodReported(report: RunReport): void {
  // Unasked log messages, from a server that declares no logging capability either.
  expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([
    'log.no-level-no-message',
    'log.capability-declared',
  ]);
}

/** Exit 3, an aborted reason saying what the target did, and the check that was running reported as an error. */
function expectBlamed(run: CliRun, reason: RegExp): RunReport {
  const report = expectCleanEnd(run, 3);
  expect(report.aborted?.reason).toMatch(reason);
  const during = report.aborted!.duringCheck;
  expect(during, 'the report names the check that was running').toBeDefined();
  expect(report.aborted!.reason).toContain(`during ${during}`);
  const running = report.checks.find((c) => c.id === during && c.status === 'error');
  expect(running?.message).toMatch(reason);
  expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
  return report;
}

function exchangesOf(report: RunReport): Exchange[] {
  return report.checks.flatMap((c) => c.evidence.filter((e): e is Exchange => 'seq' in e));
}

describe.skipIf(!BUILT)('chaos over stdio: the audit ends, blames the target, and leaves nothing behind', () => {
  it.concurrent('hangs on tools/list (reference defect): exit 3 soon after --timeout', async () => {
    const s = scene();
    const run = await audit([
      '--stdio',
      referenceChaos(s, 'hang-on-list'),
      '--timeout',
      '2000',
      '--max-duration',
      '20000',
    ]);
    expectBlamed(run, /no response to id \d+ within 2000 ms/);
    expect(run.wallMs).toBeLessThan(14_000);
    await expectNoLeftovers(s);
  });

  it.concurrent(
    'waits on a roots/list of its own before answering tools/list (reference defect): exit 3 naming that request',
    async () => {
      const s = scene();
      const run = await audit([
        '--stdio',
        referenceChaos(s, 'server-request-waits'),
        '--timeout',
        '2000',
        '--max-duration',
        '20000',
      ]);
      const report = expectBlamed(
        run,
        /^the target stopped answering while it waited on a request of its own( during \S+)?: no response to id \d+ within 2000 ms; meanwhile the server sent the request roots\/list \(id "srv-1"\) and may be waiting for its answer: a 2026-07-28 client sends no responses/,
      );
      expect(report.wire.protocolVersion).toBe('2026-07-28');
      await expectNoLeftovers(s);
    },
  );

  it.concurrent('never answers tools/call: exit 3 naming the unanswered call', async () => {
    const s = scene();
    const run = await audit([
      '--stdio',
      chaosCommand(s, '--never-answer-call'),
      '--timeout',
      '2000',
      '--max-duration',
      '20000',
    ]);
    const report = expectBlamed(run, /no response to id \d+ within 2000 ms/);
    const running = report.checks.find((c) => c.id === report.aborted!.duringCheck && c.status === 'error')!;
    const unanswered = running.evidence.find((e): e is Exchange => 'seq' in e && e.failure?.kind === 'timeout');
    expect((unanswered?.request as { method?: string }).method).toBe('tools/call');
    // Each call check waits out its own 2 s (a slow tool is not a dead target) until a request the audit needs fails.
    expect(run.wallMs).toBeLessThan(21_000);
    await expectNoLeftovers(s);
  });

  it.concurrent('prints non-JSON on stdout (reference defect): exit 3, the noise quoted', async () => {
    const s = scene();
    const run = await audit(['--stdio', referenceChaos(s, 'garbage-on-list'), '--timeout', '2000']);
    const report = expectBlamed(run, /no response/);
    expect(JSON.stringify(report)).toContain('this is not json');
    await expectNoLeftovers(s);
  });

  it.concurrent('writes half a message and exits: exit 3 saying it died mid-message, the fragment quoted', async () => {
    const s = scene();
    const run = await audit(['--stdio', chaosCommand(s, '--truncate-list')]);
    const report = expectBlamed(run, /exited with code 0 in the middle of a message \(\d+ bytes without a newline\)/);
    expect(JSON.stringify(report)).toContain('{\\"jsonrpc\\":\\"2.0\\",\\"id\\":2,\\"result\\"');
    await expectNoLeftovers(s);
  });

  it.concurrent('exits right after discover (reference defect): exit 3 naming the exit', async () => {
    const s = scene();
    expectBlamed(await audit(['--stdio', referenceChaos(s, 'exit-after-discover')]), /exited with code 1/);
    await expectNoLeftovers(s);
  });

  it.concurrent('answers with the wrong id (reference defect): exit 3 at once, not after the timeout', async () => {
    const s = scene();
    const run = await audit(['--stdio', referenceChaos(s, 'wrong-id-on-list'), '--timeout', '30000']);
    expectBlamed(run, /does not match the request id/);
    expect(run.wallMs).toBeLessThan(15_000);
    await expectNoLeftovers(s);
  });

  it.concurrent('answers one request twice: exit 3 naming the repeated id', async () => {
    const s = scene();
    const run = await audit(['--stdio', chaosCommand(s, '--answer-twice'), '--timeout', '30000']);
    expectBlamed(run, /answered the request with id 2 a second time/);
    expect(run.wallMs).toBeLessThan(15_000);
    await expectNoLeftovers(s);
  });

  it.concurrent('answers with both result and error: exit 1, base.jsonrpc says so', async () => {
    const s = scene();
    const report = expectCleanEnd(await audit(['--stdio', chaosCommand(s, '--result-and-error')]), 1);
    const envelope = report.checks.find((c) => c.id === 'base.jsonrpc');
    expect(envelope?.status).toBe('fail');
    expect(envelope?.message).toMatch(/a response to id 2 carries both result and error/);
    await expectNoLeftovers(s);
  });

  it.concurrent('a 50 MB response: exit 3 at the default 16 MiB bound, in bounded memory and time', async () => {
    const s = scene();
    const run = await audit(['--stdio', chaosCommand(s, '--huge-list', '50000000'), '--timeout', '20000'], {
      nodeOptions: ['--max-old-space-size=96'],
    });
    const report = expectBlamed(run, /message larger than 16777216 bytes/);
    expect(report.options.maxMessageBytes).toBe(16 * 1024 * 1024);
    expect(run.wallMs).toBeLessThan(25_000);
    await expectNoLeftovers(s);
  });

  it.concurrent('--max-message-bytes sets the bound', async () => {
    const s = scene();
    const run = await audit(['--stdio', chaosCommand(s, '--huge-list', '300000'), '--max-message-bytes', '100000']);
    expect(expectBlamed(run, /message larger than 100000 bytes/).options.maxMessageBytes).toBe(100_000);
    await expectNoLeftovers(s);
  });

  it.concurrent('a 10,000-deep inputSchema: exit 3 at the JSON depth bound, no stack overflow', async () => {
    const s = scene();
    const run = await audit(['--stdio', chaosCommand(s, '--deep-schema', '10000')]);
    expectBlamed(run, /message nested deeper than 1000 levels/);
    await expectNoLeftovers(s);
  });

  it.concurrent(
    'patterns that backtrack, with long strings: the audit ends in time; the output is not decided, not failed',
    async () => {
      const s = scene();
      const run = await audit(['--stdio', chaosCommand(s, '--redos', '5000'), '--max-duration', '30000']);
      const report = expectCleanEnd(run, 0);
      const output = report.checks.find((c) => c.id === 'tools.output.conform' && c.tool === 'backtrack_out');
      expect(output?.status).toBe('skip');
      expect(output?.message).toMatch(/pattern a\*a\*a\*a\*b ran longer than 250 ms on a 5001-character string/);
      expect(report.stats.toolsCalled.backtrack).toBeUndefined();
      expect(run.wallMs).toBeLessThan(20_000);
      await expectNoLeftovers(s);
    },
  );

  it.concurrent('$ref to a loopback URL and to files: reported, never fetched, never opened', async () => {
    const s = scene();
    const canary = await startCanary();
    const marker = join(s.dir, 'schema-marker.json');
    writeFileSync(marker, '{"type":"string"}');
    const log = join(s.dir, 'fs-spy.log');
    try {
      const refs = [`${canary.base}/schema.json`, 'file:///etc/passwd', `file://${marker}`].join(',');
      const run = await audit(['--stdio', chaosCommand(s, '--external-refs', refs)], {
        nodeOptions: [`--import=${FS_SPY}`],
        env: { MTC_FS_SPY_LOG: log, MTC_FS_SPY_WATCH: '/etc/passwd,schema-marker,package.json' },
      });
      const report = expectCleanEnd(run, 0);
      const external = report.checks.find((c) => c.id === 'jsonschema.ref.external' && c.tool === 'refs');
      expect(external?.status).toBe('warn');
      expect(external?.message).toContain(`${canary.base}/schema.json`);
      expect(external?.message).toContain('file:///etc/passwd');
      expect(canary.requests).toEqual([]);
      const opened = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      expect(
        opened.some((p) => p.endsWith('package.json')),
        'the spy works: it saw our own package.json read',
      ).toBe(true);
      expect(opened.filter((p) => !p.endsWith('package.json'))).toEqual([]);
    } finally {
      await canary.close();
    }
    await expectNoLeftovers(s);
  });

  it.concurrent('ANSI escapes, NUL and invalid UTF-8 in its text: nothing reaches the terminal raw', async () => {
    const s = scene();
    // The fixture's hostile tool does not validate its arguments, which the property search rightly reports; this test
    // is about the terminal.
    const run = await audit([
      '--stdio',
      chaosCommand(s, '--hostile-text'),
      '--reporter',
      'console,json,html',
      '--verbose',
      '--exclude-checks',
      '*.property',
    ]);
    // Exit 1: the invalid UTF-8 it writes on stdout is a transport.utf8 failure (JSON-RPC messages MUST be UTF-8
    // encoded).
    const report = expectCleanEnd(run, 1);
    expect(report.checks.find((c) => c.id === 'transport.utf8')?.status).toBe('fail');
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['transport.utf8']);
    expect(report.checks.find((c) => c.id === 'tools.name.charset')?.status).toBe('warn');
    expect(run.stdout).toContain('evil\\x1b[31mred');
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the terminal
    expect(run.stdout.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    const html = readFileSync(join(run.outputDir, 'report.html'), 'utf8');
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the page
    expect(html).not.toMatch(/[\u0000\u0007\u001b\u009b]/);
    await expectNoLeftovers(s);
  });

  it.concurrent(
    '100,000 notifications: the audit completes in a small heap, keeps 1000 per exchange and reports the flood',
    async () => {
      const s = scene();
      const run = await audit(['--stdio', chaosCommand(s, '--notify-flood', '100000'), '--timeout', '20000'], {
        nodeOptions: ['--max-old-space-size=48'],
      });
      const report = expectCleanEnd(run, 1);
      expectFloodReported(report);
      const flooded = exchangesOf(report).find((e) => (e.notificationsDropped ?? 0) > 0);
      expect(flooded?.notifications.length).toBe(1000);
      expect(flooded!.notifications.length + flooded!.notificationsDropped!).toBe(100_000);
      await expectNoLeftovers(s);
    },
  );

  it.concurrent('echoes an --env value into stderr and its crash message: exit 3, the value nowhere', async () => {
    const s = scene();
    const secret = 'chaos-secret-7f3e9a41';
    const run = await audit([
      '--stdio',
      chaosCommand(s, '--leak-env', 'MTC_CHAOS_SECRET'),
      '--env',
      `MTC_CHAOS_SECRET=${secret}`,
      '--reporter',
      'console,json,junit,sarif,markdown,html',
    ]);
    const report = expectBlamed(run, /exited with code 70/);
    expect(report.aborted!.reason).toContain('cannot connect with password [redacted]');
    expect(run.stdout + run.stderr).not.toContain(secret);
    for (const file of ['report.json', 'junit.xml', 'report.sarif', 'summary.md', 'report.html']) {
      expect(readFileSync(join(run.outputDir, file), 'utf8'), file).not.toContain(secret);
    }
    await expectNoLeftovers(s);
  });
});

describe.skipIf(!BUILT)('chaos over HTTP: the audit ends, blames the target, and leaves no connection open', () => {
  const overHttp = async (flags: string[], args: string[], check: (run: CliRun) => void): Promise<void> => {
    const s = scene();
    const server = await startHttpServer(FIXTURE, '--http', '--pid-file', join(s.dir, 'pids'), ...flags);
    const serverPid = Number(readFileSync(join(s.dir, 'pids'), 'utf8').trim());
    try {
      const run = await audit(['--url', server.url, ...args]);
      check(run);
      await expectNoConnections(server.url);
      await expectNoLeftovers(s, [serverPid]);
    } finally {
      await server.stop();
    }
  };

  it.concurrent('an event stream with broken framing: exit 3', () =>
    overHttp(['--sse-broken'], [], (run) => void expectBlamed(run, /SSE stream ended without a response to id 2/)),
  );

  it.concurrent('HTTP 500 with an HTML page: exit 3 naming the status', () =>
    overHttp(['--http-500'], [], (run) => void expectBlamed(run, /HTTP 500 with non-JSON body/)),
  );

  it.concurrent('HTTP 429 with Retry-After, again and again: waits once, then exit 3', () =>
    overHttp(['--http-429', '1'], [], (run) => {
      expectBlamed(run, /HTTP 429 Too Many Requests again after waiting out Retry-After: 1/);
      expect(run.wallMs).toBeGreaterThan(1000);
    }),
  );

  it.concurrent('a connection reset: exit 3', () =>
    overHttp(['--reset'], [], (run) => void expectBlamed(run, /ECONNRESET|socket hang up|other side closed/)),
  );

  it.concurrent('a slow drip: exit 3 when --timeout passes, whatever still trickles in', () =>
    overHttp(['--drip', '100'], ['--timeout', '1000'], (run) => {
      expectBlamed(run, /no complete response within 1000 ms/);
      expect(run.wallMs).toBeLessThan(12_000);
    }),
  );

  it.concurrent('a 50 MB body: exit 3 at --max-message-bytes', () =>
    overHttp(
      ['--huge-list', '50000000'],
      ['--max-message-bytes', '1000000', '--timeout', '20000'],
      (run) => void expectBlamed(run, /exceeds 1000000 bytes/),
    ),
  );

  it.concurrent('100,000 notifications on the event stream: the audit completes; 1000 kept', () =>
    overHttp(['--notify-flood', '100000'], ['--timeout', '20000'], (run) => {
      const report = expectCleanEnd(run, 1);
      expectFloodReported(report);
      const flooded = exchangesOf(report).find((e) => (e.notificationsDropped ?? 0) > 0);
      expect(flooded?.notifications.length).toBe(1000);
      expect(flooded!.notifications.length + flooded!.notificationsDropped!).toBe(100_000);
    }),
  );
});
