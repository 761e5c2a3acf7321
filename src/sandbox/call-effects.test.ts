import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model/exchange.js';
import type { FileEffect } from '../model/effects.js';
import { CallEffects } from './call-effects.js';

/** A fake sandbox whose state is a set of file names: a name that appears was created, one that goes was deleted. */
function fakeSource() {
  const files = new Set<string>();
  const effect = (path: string, kind: FileEffect['kind']): FileEffect => ({
    root: '$TMPDIR',
    path,
    kind,
    type: 'file',
    size: 1,
  });
  return {
    files,
    source: {
      snapshot: async () => new Set(files),
      changes: (before: Set<string>, after: Set<string>) => [
        ...[...after].filter((f) => !before.has(f)).map((f) => effect(f, 'created')),
        ...[...before].filter((f) => !after.has(f)).map((f) => effect(f, 'deleted')),
      ],
    },
  };
}

const exchange = (seq: number) => ({ seq }) as unknown as Exchange;

describe('CallEffects', () => {
  it('puts each change down to the call in flight, late ones to the call before, start-ups outside any call', async () => {
    const { files, source } = fakeSource();
    const effects = new CallEffects(source);
    await effects.begin();
    files.add('startup.log');
    await effects.before();
    files.add('a.json');
    const first = exchange(1);
    await effects.after({ tool: 'write', args: { x: 1 }, exchange: first });
    files.add('a.json.bak');
    await effects.before();
    await effects.after();
    await effects.before();
    files.delete('a.json');
    await effects.after({ tool: 'write', args: { x: 2 }, exchange: exchange(2) });
    await effects.before();
    await effects.after({ tool: 'read', args: {}, exchange: exchange(3) });
    files.add('late.txt');
    await effects.end();

    expect(
      effects.calls().map((c) => [c.tool, c.effects.map((e) => `${e.kind} ${e.path}`), c.after.map((e) => e.path)]),
    ).toEqual([
      ['write', ['created a.json'], ['a.json.bak']],
      ['write', ['deleted a.json'], []],
      ['read', [], ['late.txt']],
    ]);
    expect(effects.of(first)?.arguments).toEqual({ x: 1 });
    expect(effects.outsideCalls().changes.map((e) => e.path)).toEqual(['startup.log']);
    expect(effects.byTool()).toEqual({
      write: {
        calls: 2,
        callsWithChanges: 2,
        changes: [
          { root: '$TMPDIR', path: 'a.json', kind: 'created', type: 'file', size: 1, call: 1 },
          { root: '$TMPDIR', path: 'a.json.bak', kind: 'created', type: 'file', size: 1, call: 1, late: true },
          { root: '$TMPDIR', path: 'a.json', kind: 'deleted', type: 'file', size: 1, call: 2 },
        ],
      },
      read: {
        calls: 1,
        callsWithChanges: 0,
        changes: [{ root: '$TMPDIR', path: 'late.txt', kind: 'created', type: 'file', size: 1, call: 1, late: true }],
      },
    });
  });

  it('caps the changes kept per tool and counts the rest', async () => {
    const { files, source } = fakeSource();
    const effects = new CallEffects(source);
    await effects.begin();
    await effects.before();
    for (let i = 0; i < 70; i += 1) files.add(`f${i}`);
    await effects.after({ tool: 'many', args: {}, exchange: exchange(1) });
    const many = effects.byTool().many!;
    expect(many.changes).toHaveLength(50);
    expect(many.more).toBe(20);
  });
});
