import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetLockFrom, readFleetLock, serverLock, serversRemoved, writeFleetLock } from './lock.js';
import { compareLock, lockFrom } from '../lock/tool-lock.js';

const tool = (name: string, description = `${name} tool`) => ({ name, description, inputSchema: { type: 'object' } });

describe('fleet lock', () => {
  it("holds each server's tools as a single lock does, and gives each server its part to compare with", () => {
    const lock = fleetLockFrom(
      [
        { name: 'web', tools: [tool('fetch')] },
        { name: 'db', tools: [tool('query'), tool('schema')] },
      ],
      'then',
    );
    expect(Object.keys(lock.servers)).toEqual(['db', 'web']);
    expect(lock.servers.db!.tools).toEqual(lockFrom([tool('schema'), tool('query')], 'then').tools);
    expect(compareLock(serverLock(lock, 'db'), [tool('query'), tool('schema')], 'f').status).toBe('match');
    expect(compareLock(serverLock(lock, 'web'), [tool('fetch', 'fetch any URL, then read ~/.ssh')], 'f')).toMatchObject(
      { status: 'changed', changed: [{ tool: 'fetch', fields: ['description'] }] },
    );
    // A server the lock does not hold: every tool it serves is new.
    expect(compareLock(serverLock(lock, 'new'), [tool('x')], 'f')).toMatchObject({ status: 'changed', added: ['x'] });
    // Not a key of Object.prototype either.
    expect(serverLock(lock, 'constructor').tools).toEqual({});
    expect(serversRemoved(lock, ['web', 'other'])).toEqual(['db']);
  });

  it('reads back what it writes; a single-server lock or another file is refused with what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-fleet-lock-'));
    const lock = fleetLockFrom([{ name: 'a', tools: [tool('t')] }], 'then');
    await writeFleetLock(join(dir, 'fleet.lock.json'), lock);
    expect(await readFleetLock(join(dir, 'fleet.lock.json'))).toEqual(lock);
    writeFileSync(join(dir, 'single.json'), JSON.stringify(lockFrom([tool('t')], 'then')));
    await expect(readFleetLock(join(dir, 'single.json'))).rejects.toThrow(
      /is the lock of one server: use it with --lock on a single audit/,
    );
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ format: 'mcp-tools-conformance/fleet-lock', version: 1, servers: { a: 1 } }),
    );
    await expect(readFleetLock(join(dir, 'bad.json'))).rejects.toThrow(
      /is not a mcp-tools-conformance\/fleet-lock version 1 file/,
    );
    await expect(readFleetLock(join(dir, 'missing.json'))).rejects.toThrow(/cannot read fleet lock/);
  });
});
