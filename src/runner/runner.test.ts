import { describe, expect, it } from 'vitest';
import type { CheckContext } from './context.js';
import { runChecks } from './runner.js';
import type { CheckDefinition } from './types.js';

const ctx = { wire: '2026-07-28', transportKind: 'stdio', client: {}, options: { timeoutMs: 1000, concurrency: 4 } } as unknown as CheckContext;

function recorder() {
  const ran: string[] = [];
  const check = (id: string, phase?: CheckDefinition['phase']): CheckDefinition => ({
    id,
    keyword: 'MUST',
    title: id,
    specRef: 'x',
    area: 'x',
    wires: ['2026-07-28'],
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
