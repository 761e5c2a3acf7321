import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previousDurations, startOrder } from './start-order.js';

describe('startOrder', () => {
  const names = ['a', 'b', 'c', 'd', 'e'];

  it('keeps file order when no server has a previous time', () => {
    expect(startOrder([0, 2, 4], names, new Map())).toEqual([0, 2, 4]);
  });

  it('puts servers without a time first, then the others longest first, file order breaking ties', () => {
    expect(
      startOrder(
        [0, 1, 2, 3, 4],
        names,
        new Map([
          ['a', 100],
          ['b', 900],
          ['d', 100],
          ['e', 400],
        ]),
      ),
    ).toEqual([2, 1, 4, 0, 3]);
  });
});

describe('previousDurations', () => {
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'mtc-start-order-')), 'fleet.json');
    writeFileSync(path, text);
    return path;
  };

  it("reads each audited server's time; a skipped server, a missing file or one that is not a fleet report gives none", async () => {
    const servers = [
      { name: 'a', outcome: 'conformant', durationMs: 1200 },
      { name: 'b', outcome: 'skipped', durationMs: 0 },
      { name: 'c', outcome: 'timed-out', durationMs: 120000 },
      { name: 'd', outcome: 'failing' },
    ];
    expect([...(await previousDurations(file(JSON.stringify({ servers }))))]).toEqual([
      ['a', 1200],
      ['c', 120000],
    ]);
    expect((await previousDurations(join(tmpdir(), 'mtc-no-such-folder', 'fleet.json'))).size).toBe(0);
    expect((await previousDurations(file('not json'))).size).toBe(0);
    expect((await previousDurations(file('{"checks": []}'))).size).toBe(0);
  });
});
