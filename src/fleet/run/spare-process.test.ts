import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discardSpare, running, SpareAudits, startSpare } from './spare-process.js';
import { SPARE_COMMAND, spareArguments } from './spare-protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'mtc-spare-'));
/** A stand-in for our CLI as a spare: says it is up, then tells on stderr what its stdin carried once it ends. */
const WAITER = join(dir, 'waiter.mjs');
writeFileSync(WAITER, `import { readFileSync } from 'node:fs';
process.stderr.write('up ' + process.argv.slice(2).join(' ') + '\\n');
process.stderr.write('got ' + JSON.stringify(readFileSync(0, 'utf8')) + '\\n');
`);
/** A stand-in that dies while it loads. */
const DIES = join(dir, 'dies.mjs');
writeFileSync(DIES, 'process.exit(7);');

const closed = (spare: Awaited<ReturnType<typeof startSpare>>) =>
  new Promise<number | null>((done) => (spare.child.exitCode !== null ? done(spare.child.exitCode) : spare.child.once('close', done)));

describe('spare audit processes', () => {
  it('starts up to its most ahead, never more than the servers waiting, and hands out the oldest first', async () => {
    const spares = new SpareAudits(WAITER, 2);
    spares.prepare(1);
    spares.prepare(1);
    const spare = await spares.take();
    expect(running.has(spare.child)).toBe(true);
    expect(spare.child.exitCode).toBeNull();
    // Nothing was started ahead any more: the next take() starts a new process.
    const next = await spares.take();
    expect(next.child.pid).not.toBe(spare.child.pid);
    await Promise.all([discardSpare(spare), discardSpare(next)]);
    expect(spare.stderr()).toBe(`up ${SPARE_COMMAND}\ngot ""\n`);
    expect(existsSync(spare.dir)).toBe(false);
  });

  it('ends a spare no server took: its stdin ends without arguments, its folder is removed', async () => {
    const spares = new SpareAudits(WAITER, 2);
    spares.prepare(5);
    const ahead = await (spares as unknown as { ahead: Promise<Awaited<ReturnType<typeof startSpare>>>[] }).ahead[1]!;
    expect((spares as unknown as { ahead: unknown[] }).ahead).toHaveLength(2);
    await spares.close();
    expect(ahead.child.exitCode).toBe(0);
    expect(ahead.stderr()).toBe(`up ${SPARE_COMMAND}\ngot ""\n`);
    expect(existsSync(ahead.dir)).toBe(false);
    expect(running.has(ahead.child)).toBe(false);
    // Closing again, with nothing ahead, is a no-op.
    await spares.close();
  });

  it('replaces a spare that ended before it was needed', async () => {
    const spares = new SpareAudits(DIES, 1);
    spares.prepare(1);
    const first = await (spares as unknown as { ahead: Promise<Awaited<ReturnType<typeof startSpare>>>[] }).ahead[0]!;
    expect(await closed(first)).toBe(7);
    const spare = await spares.take();
    expect(spare.child.pid).not.toBe(first.child.pid);
    expect(existsSync(first.dir)).toBe(false);
    expect(await closed(spare)).toBe(7);
    await discardSpare(spare);
  });

  it('reads one line of arguments, or none when stdin ends empty, and refuses anything but strings', async () => {
    const { Readable } = await import('node:stream');
    expect(await spareArguments(Readable.from(['["run","--stdio",', '"node s.js"]\n', 'ignored']))).toEqual(['run', '--stdio', 'node s.js']);
    expect(await spareArguments(Readable.from([]))).toBeUndefined();
    await expect(spareArguments(Readable.from(['[1]\n']))).rejects.toThrow(/not an array of strings/);
  });
});
