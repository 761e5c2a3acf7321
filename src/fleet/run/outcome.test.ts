import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../model/check.js';
import type { FleetEntry } from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';
import { classify, notAudited, type AuditRun } from './outcome.js';

const STDIO: FleetEntry = { name: 's', source: 'mcp.json', transport: 'stdio', command: 'node', args: ['s.js'] };
const HTTP: FleetEntry = { name: 'h', source: 'mcp.json', transport: 'http', url: 'http://127.0.0.1:1/mcp' };

function check(id: string, status: CheckResult['status'], message = ''): CheckResult {
  return {
    id,
    status,
    message,
    title: id,
    keyword: 'MUST',
    keywordText: 'MUST',
    area: 'tools',
    specRef: 'server/tools',
    durationMs: 1,
    evidence: [],
  } as unknown as CheckResult;
}

function report(checks: CheckResult[], extra: Partial<RunReport> = {}): RunReport {
  const summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const c of checks) summary[c.status] += 1;
  return {
    durationMs: 100,
    options: { maxDurationMs: 60_000 },
    wire: { protocolVersion: '2026-07-28', reason: 'discover' },
    stats: { requests: 1, toolsCalled: {} },
    summary,
    checks,
    ...extra,
  } as unknown as RunReport;
}

const ran = (r: RunReport | undefined, more: Partial<AuditRun> = {}): AuditRun => ({
  exitCode: r?.exitCode ?? 0,
  killed: false,
  ...(r ? { report: r } : {}),
  stderr: [],
  budgetMs: 60_000,
  ...more,
});

describe('classify: one outcome and one line of why per audited server', () => {
  it('conformant, warnings, failing from the report', () => {
    expect(classify(STDIO, ran(report([check('a', 'pass'), check('b', 'skip')])))).toEqual({
      outcome: 'conformant',
      why: 'no fail and no warning on 2026-07-28',
    });
    expect(classify(STDIO, ran(report([check('a', 'warn'), check('a', 'warn'), check('b', 'pass')])))).toEqual({
      outcome: 'warnings',
      why: 'no fail; 2 warnings: a',
    });
    const failing = classify(
      STDIO,
      ran(
        report([
          check('x.one', 'fail'),
          check('x.two', 'fail'),
          check('x.one', 'fail'),
          check('x.3', 'fail'),
          check('x.4', 'fail'),
          check('w', 'warn'),
        ]),
      ),
    );
    expect(failing).toEqual({ outcome: 'failing', why: '5 fails: x.one, x.two, x.3 and 1 more' });
  });

  it('--lock: tools changed since the lock make the server failing, as they fail a single audit, and the why names them', () => {
    const lock = {
      file: '/out/servers/s/tools.lock.json',
      status: 'changed',
      added: ['fresh'],
      removed: [],
      changed: [{ tool: 'search', fields: ['description'] }],
    } as const;
    expect(
      classify(
        STDIO,
        ran(
          report([check('a', 'warn')], {
            lock: { ...lock, added: [...lock.added], removed: [], changed: [...lock.changed] },
          }),
        ),
      ),
    ).toEqual({
      outcome: 'failing',
      why: 'its tools differ from the lock: +fresh, ~search (description)',
    });
    const both = classify(
      STDIO,
      ran(report([check('x', 'fail')], { lock: { ...lock, added: [], removed: ['gone'], changed: [] } })),
    );
    expect(both).toEqual({ outcome: 'failing', why: '1 fail: x; its tools differ from the lock: -gone' });
    const matched = classify(
      STDIO,
      ran(report([check('a', 'pass')], { lock: { file: 'f', status: 'match', added: [], removed: [], changed: [] } })),
    );
    expect(matched.outcome).toBe('conformant');
  });

  it('a fail proven stays failing when the target was lost afterwards', () => {
    const r = report([check('x', 'fail'), check('y', 'error')], {
      aborted: { reason: 'the target stopped answering during y: exited' },
    });
    expect(classify(STDIO, ran(r))).toEqual({
      outcome: 'failing',
      why: '1 fail: x; then the target stopped answering during y: exited',
    });
  });

  it('could not start: a command not found gets the PATH hint; its stderr is kept', () => {
    const r = report([check('a', 'skip')], {
      wire: { protocolVersion: null, reason: 'x' },
      aborted: { reason: "the target could not be audited: cannot start 'nope': ENOENT", targetStderr: ['line 1'] },
    });
    const got = classify(STDIO, ran(r, { exitCode: 3 }));
    expect(got.outcome).toBe('could-not-start');
    expect(got.why).toMatch(/^cannot start 'nope': ENOENT \('nope' was not found: is it installed and on PATH\?/);
    expect(got.stderr).toEqual(['line 1']);
  });

  it('a URL that refuses or does not resolve is unreachable; one that answers but never agrees a revision could not start', () => {
    const refused = report([], {
      wire: { protocolVersion: null, reason: 'x' },
      aborted: {
        reason:
          'the target could not be audited: cannot reach the target: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
      },
    });
    expect(classify(HTTP, ran(refused, { exitCode: 3 }))).toMatchObject({
      outcome: 'unreachable',
      why: 'cannot reach the target: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
    });
    const unresolved = report([], {
      wire: { protocolVersion: null, reason: 'x' },
      aborted: { reason: 'the target could not be audited: getaddrinfo ENOTFOUND nowhere.invalid' },
    });
    expect(classify(HTTP, ran(unresolved, { exitCode: 3 })).outcome).toBe('unreachable');
    const refusedHandshake = report([], {
      wire: { protocolVersion: null, reason: 'x' },
      aborted: { reason: 'the target could not be audited: initialize: HTTP 401' },
    });
    expect(classify(HTTP, ran(refusedHandshake, { exitCode: 3 })).outcome).toBe('could-not-start');
  });

  it('a target lost halfway with no fail is unreachable; a budget that ran out is timed-out', () => {
    const lost = report([check('a', 'pass'), check('b', 'error')], {
      aborted: { reason: 'the target stopped answering during b: exited with code 1' },
    });
    expect(classify(STDIO, ran(lost, { exitCode: 3 }))).toMatchObject({
      outcome: 'unreachable',
      why: 'the target stopped answering during b: exited with code 1',
    });
    const cut = report([check('a', 'warn'), check('b', 'skip')], {
      cutShort: {
        reason: 'the --max-duration budget of 5000 ms ran out: 3 check(s) skipped for budget',
        checksSkipped: 3,
      },
    });
    expect(classify(STDIO, ran(cut))).toEqual({
      outcome: 'timed-out',
      why: 'the --max-duration budget of 5000 ms ran out: 3 check(s) skipped for budget',
    });
    const closed = report([], {
      durationMs: 4100,
      options: { maxDurationMs: 2000 },
      wire: { protocolVersion: null, reason: 'x' },
      aborted: { reason: 'the target could not be audited: transport closed' },
    } as Partial<RunReport>);
    expect(classify(STDIO, ran(closed, { exitCode: 3 }))).toEqual({
      outcome: 'timed-out',
      why: 'its --max-duration budget of 2000 ms ran out (transport closed)',
    });
  });

  it('an audit stopped by the fleet is timed-out; one that ended without a report could not start, or, on a usage error, is an invalid entry', () => {
    expect(classify(STDIO, ran(undefined, { exitCode: null, killed: true })).outcome).toBe('timed-out');
    expect(
      classify(
        STDIO,
        ran(undefined, {
          exitCode: 2,
          stderr: ['mcp-tools-conformance: --env must look like NAME=value, got "A-B"=…'],
        }),
      ),
    ).toEqual({
      outcome: 'invalid-entry',
      why: '--env must look like NAME=value, got "A-B"=…',
    });
    expect(
      classify(STDIO, ran(undefined, { exitCode: 134, stderr: ['FATAL ERROR: heap out of memory'] })),
    ).toMatchObject({
      outcome: 'could-not-start',
      why: 'the audit ended without a report: FATAL ERROR: heap out of memory',
    });
  });

  it('a check that could not run keeps a server from being called conformant', () => {
    expect(
      classify(STDIO, ran(report([check('a', 'pass'), check('b', 'error', 'internal error in check b: boom')]))),
    ).toEqual({
      outcome: 'warnings',
      why: '1 check(s) could not run: internal error in check b: boom',
    });
  });
});

describe('notAudited: entries that never start', () => {
  it('disabled, another shard: skipped; invalid as written: invalid-entry; a missing secret: needs-secret, naming the variable of an input; else audited', () => {
    expect(notAudited({ ...STDIO, disabled: true }, true)).toEqual({ outcome: 'skipped', why: 'disabled in its file' });
    expect(notAudited({ ...STDIO, disabled: true, invalid: 'no command and no url' }, true)).toEqual({
      outcome: 'skipped',
      why: 'disabled in its file',
    });
    expect(notAudited({ ...STDIO, invalid: 'no command and no url' }, true)).toEqual({
      outcome: 'invalid-entry',
      why: 'no command and no url',
    });
    expect(notAudited(STDIO, false, { index: 2, count: 3 })).toEqual({
      outcome: 'skipped',
      why: 'in another shard than 2/3',
    });
    // The shard that holds an invalid entry reports it; the others do not each count it again.
    expect(notAudited({ ...STDIO, invalid: 'no command and no url' }, false, { index: 2, count: 3 })).toEqual({
      outcome: 'skipped',
      why: 'in another shard than 2/3',
    });
    expect(notAudited({ ...STDIO, missingSecrets: ['GITHUB_TOKEN', 'input:api-key'] }, true)).toEqual({
      outcome: 'needs-secret',
      why:
        'needs GITHUB_TOKEN, MCP_INPUT_API_KEY (the input api-key): not set in the environment, so the server ' +
        'was not started',
    });
    expect(notAudited(STDIO, true)).toBeUndefined();
  });
});
