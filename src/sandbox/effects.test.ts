import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareSnapshots, Fingerprints, takeSnapshot, walkOrder, type ScratchRoot } from './effects.js';

describe('walkOrder', () => {
  it('orders paths as a depth-first walk with sorted names does', () => {
    const paths = ['b', 'a-b', 'a/b/c', 'a', 'a/b', 'A', 'a/a'];
    expect(paths.sort(walkOrder)).toEqual(['A', 'a', 'a/a', 'a/b', 'a/b/c', 'a-b', 'b']);
    expect(walkOrder('', 'a')).toBeLessThan(0);
    expect(walkOrder('x/y', 'x/y')).toBe(0);
  });
});

describe('snapshots of a scratch folder', () => {
  let dir: string;
  const root = (): ScratchRoot => ({ kind: 'scratch', label: '$TMPDIR', dir });
  const lowers = new Map();
  const fingerprints = new Fingerprints();
  const snap = (limit?: number) => takeSnapshot([root()], fingerprints, lowers, limit);
  const changes = async (change: () => void) => {
    const before = await snap();
    change();
    return compareSnapshots(before, await snap(), lowers);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'effects-test-'));
    mkdirSync(join(dir, 'folder', 'inner'), { recursive: true });
    writeFileSync(join(dir, 'folder', 'inner', 'x.txt'), 'xx');
    writeFileSync(join(dir, 'folder', 'y.txt'), 'yyy');
    writeFileSync(join(dir, 'keep.txt'), 'same');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reports a deleted folder once, for what it held', async () => {
    expect(await changes(() => rmSync(join(dir, 'folder'), { recursive: true }))).toEqual([
      { root: '$TMPDIR', path: 'folder', kind: 'deleted', type: 'directory' },
    ]);
  });

  it('reports every entry a new folder holds, and a change of type as a modification', async () => {
    const effects = await changes(() => {
      mkdirSync(join(dir, 'made', 'deeper'), { recursive: true });
      writeFileSync(join(dir, 'made', 'deeper', 'z'), '');
      rmSync(join(dir, 'keep.txt'));
      mkdirSync(join(dir, 'keep.txt'));
      rmSync(join(dir, 'folder', 'y.txt'));
      symlinkSync('inner', join(dir, 'folder', 'y.txt'));
    });
    expect(effects).toEqual([
      { root: '$TMPDIR', path: 'folder/y.txt', kind: 'modified', type: 'symlink', size: 5 },
      { root: '$TMPDIR', path: 'keep.txt', kind: 'modified', type: 'directory' },
      { root: '$TMPDIR', path: 'made', kind: 'created', type: 'directory' },
      { root: '$TMPDIR', path: 'made/deeper', kind: 'created', type: 'directory' },
      { root: '$TMPDIR', path: 'made/deeper/z', kind: 'created', type: 'file', size: 0 },
    ]);
  });

  it('tells contents apart, not times; past 16 MiB, size and mtime', async () => {
    expect(await changes(() => writeFileSync(join(dir, 'keep.txt'), 'same'))).toEqual([]);
    expect(await changes(() => writeFileSync(join(dir, 'keep.txt'), 'diff'))).toEqual([
      { root: '$TMPDIR', path: 'keep.txt', kind: 'modified', type: 'file', size: 4, sizeBefore: 4 },
    ]);
    const big = join(dir, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 17 * 1024 * 1024);
    expect(await changes(() => utimesSync(big, 1000, 1000))).toEqual([
      {
        root: '$TMPDIR',
        path: 'big.bin',
        kind: 'modified',
        type: 'file',
        size: 17 * 1024 * 1024,
        sizeBefore: 17 * 1024 * 1024,
      },
    ]);
  });

  it('stops at the entry bound and reports nothing past it', async () => {
    const before = await snap(3);
    expect(before.truncated).toBe(true);
    expect([...before.roots.get('$TMPDIR')!.entries.keys()]).toEqual(['folder', 'folder/inner', 'folder/inner/x.txt']);
    writeFileSync(join(dir, 'folder', 'inner', 'a.txt'), 'new');
    writeFileSync(join(dir, 'keep.txt'), 'changed past the bound');
    const after = await snap();
    expect(after.truncated).toBe(false);
    expect(compareSnapshots(before, after, lowers)).toEqual([
      { root: '$TMPDIR', path: 'folder/inner/a.txt', kind: 'created', type: 'file', size: 3 },
    ]);
    expect(compareSnapshots(after, await snap(0), lowers)).toEqual([]);
  });
});
