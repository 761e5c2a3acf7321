import { describe, expect, it } from 'vitest';
import type { CheckContext } from './context.js';
import { TargetGoneError } from '../protocol/errors.js';
import { runChecks } from './runner.js';
import { pending, type CheckDefinition } from './types.js';

const ctx = {
  revision: '2026-07-28',
  transportKind: 'stdio',
  client: {},
  options: { timeoutMs: 1000, concurrency: 4 },
} as unknown as CheckContext;

function recorder() {
  const ran: string[] = [];
  const check = (id: string, phase?: CheckDefinition['phase']): CheckDefinition => ({
    id,
    keyword: 'MUST',
    title: id,
    specRef: 'x',
    area: 'x',
    sentences: { '2026-07-28': [{ ref: 'x', text: 'x', keyword: 'MUST' }] },
    ...(phase ? { phase } : {}),
    run: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      ran.push(id);
      return [{ status: 'pass', message: 'ok' }];
    },
  });
  return { ran, check };
}

describe('check phases', () => {
  it('runs main, then serial, then the searches, then final and last checks, whatever the registry order', async () => {
    const { ran, check } = recorder();
    const checks = [
      check('closes-shared', 'last'),
      check('search-1', 'search'),
      check('looks-at-all', 'final'),
      check('probe', 'serial'),
      check('a'),
      check('search-2', 'search'),
      check('b'),
    ];
    const output = await runChecks(checks, ctx, {});
    expect(ran.slice(0, 2).sort()).toEqual(['a', 'b']);
    expect(ran[2]).toBe('probe');
    expect(ran.slice(3, 5).sort()).toEqual(['search-1', 'search-2']);
    expect(ran.slice(5)).toEqual(['looks-at-all', 'closes-shared']);
    // Results keep the registry order.
    expect(output.results.map((r) => r.id)).toEqual(checks.map((c) => c.id));
  });
});

describe('a target that stops answering', () => {
  it('while it waits on a request of its own that the client left unanswered: the abort reason says so, and names the request', async () => {
    const failure = {
      kind: 'timeout' as const,
      message:
        'no response to id 3 within 500 ms; meanwhile the server sent the request roots/list (id "srv-1") and ' +
        'may be waiting for its answer',
    };
    const exchange = { seq: 1, sentAt: '', durationMs: 500, request: {}, notifications: [], failure };
    const gone = new TargetGoneError(exchange, failure.message, { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    const lost = { ...ctx, strays: () => [], targetStderr: () => '' } as unknown as CheckContext;
    const check: CheckDefinition = {
      id: 'x.lists',
      keyword: 'MUST',
      title: 'x',
      specRef: 'x',
      area: 'x',
      sentences: { '2026-07-28': [{ ref: 'x', text: 'x', keyword: 'MUST' }] },
      run: () => {
        throw gone;
      },
    };
    const output = await runChecks([check], lost, {});
    expect(output.aborted?.reason).toBe(
      `the target stopped answering while it waited on a request of its own during x.lists: ${failure.message}`,
    );
    expect(output.results[0]).toMatchObject({
      status: 'error',
      message: `the target stopped answering while it waited on a request of its own: ${failure.message}`,
    });
  });
});

describe('skips for want of a callable tool', () => {
  const check = (id: string, needs: CheckDefinition['needs'], status: 'skip' | 'pass'): CheckDefinition => ({
    id,
    keyword: 'MUST',
    title: id,
    specRef: 'x',
    area: 'x',
    sentences: { '2026-07-28': [{ ref: 'x', text: 'x', keyword: 'MUST' }] },
    ...(needs ? { needs } : {}),
    run: () => [{ status, message: status === 'skip' ? 'no tool was called' : 'ok' }],
  });
  const withCallable = (none: boolean) => ({ ...ctx, noCallableTool: async () => none }) as unknown as CheckContext;
  const checks = [
    check('calls.skip', ['tool-call'], 'skip'),
    check('calls.pass', ['tool-call'], 'pass'),
    check('static.skip', undefined, 'skip'),
  ];

  it('marks the skips of checks that judge tool calls when no listed tool may be called, and nothing else', async () => {
    const output = await runChecks(checks, withCallable(true), {});
    expect(output.results.map((r) => [r.id, r.skippedFor])).toEqual([
      ['calls.skip', 'no-callable-tool'],
      ['calls.pass', undefined],
      ['static.skip', undefined],
    ]);
  });

  it('marks none when some listed tool may be called', async () => {
    const output = await runChecks(checks, withCallable(false), {});
    expect(output.results.filter((r) => r.skippedFor !== undefined)).toEqual([]);
  });
});

describe('pending verdicts', () => {
  /** A serial check that sends in its turn, then hands back a verdict that settles when `close()` is called. */
  function windowed(ran: string[]) {
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const check: CheckDefinition = {
      id: 'window',
      keyword: 'MUST',
      title: 'window',
      specRef: 'x',
      area: 'x',
      sentences: { '2026-07-28': [{ ref: 'x', text: 'x', keyword: 'MUST' }] },
      phase: 'serial',
      run: () => {
        ran.push('window sent');
        return pending(closed.then(() => (ran.push('window judged'), [{ status: 'pass', message: 'quiet' }])));
      },
    };
    return { check, close };
  }

  it('while checks overlap, do not hold up the phases after them, and are collected before the final phase', async () => {
    const { ran, check } = recorder();
    const window = windowed(ran);
    const closeWhenSearched = check('search', 'search');
    const searched = closeWhenSearched.run;
    closeWhenSearched.run = async (c) => {
      const outcomes = await searched(c);
      setTimeout(window.close, 20);
      return outcomes;
    };
    // Were the verdict waited for in turn, the window would close on this timer instead, before the probe.
    setTimeout(window.close, 500);
    const checks = [check('looks-at-all', 'final'), window.check, check('probe', 'serial'), closeWhenSearched];
    const output = await runChecks(checks, ctx, {});
    expect(ran).toEqual(['window sent', 'probe', 'search', 'window judged', 'looks-at-all']);
    expect(output.results.map((r) => [r.id, r.status])).toEqual([
      ['looks-at-all', 'pass'],
      ['window', 'pass'],
      ['probe', 'pass'],
      ['search', 'pass'],
    ]);
  });

  it('at --concurrency 1, are waited for in turn, as any other check', async () => {
    const { ran, check } = recorder();
    const window = windowed(ran);
    setTimeout(window.close, 20);
    const inTurn = { ...ctx, options: { ...ctx.options, concurrency: 1 } } as CheckContext;
    await runChecks([window.check, check('probe', 'serial'), check('search', 'search')], inTurn, {});
    expect(ran).toEqual(['window sent', 'window judged', 'probe', 'search']);
  });

  it('that throw are reported like a check that threw', async () => {
    const check: CheckDefinition = {
      id: 'x.window',
      keyword: 'MUST',
      title: 'x',
      specRef: 'x',
      area: 'x',
      sentences: { '2026-07-28': [{ ref: 'x', text: 'x', keyword: 'MUST' }] },
      run: () => pending(Promise.reject(new Error('lost the window'))),
    };
    const output = await runChecks([check], ctx, {});
    expect(output.results[0]).toMatchObject({
      status: 'error',
      message: 'internal error in check x.window: lost the window',
    });
  });
});
