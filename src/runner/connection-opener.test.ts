import { describe, expect, it } from 'vitest';
import type { Transport } from '../transport/types.js';
import { ConnectionOpener } from './connection-opener.js';

interface FakeTransport extends Transport {
  id: number;
  starts: number;
  closed: boolean;
}

function factory(options: { failStart?: boolean } = {}) {
  const made: FakeTransport[] = [];
  const create = async (): Promise<Transport> => {
    const transport = {
      id: made.length + 1,
      starts: 0,
      closed: false,
      kind: 'stdio',
      description: 'fake',
      start() {
        transport.starts += 1;
        return options.failStart ? Promise.reject(new Error('cannot start')) : Promise.resolve();
      },
      async close() {
        transport.closed = true;
      },
    } as unknown as FakeTransport;
    made.push(transport);
    return transport;
  };
  return { made, create };
}

describe('ConnectionOpener', () => {
  it('hands the spare, already started, to the first connection asked for, and new ones after it', async () => {
    const { made, create } = factory();
    const opener = new ConnectionOpener(create);
    opener.startSpare();
    opener.startSpare();
    await new Promise((resolve) => setImmediate(resolve));
    expect(made.map((t) => [t.id, t.starts])).toEqual([[1, 1]]);
    const first = (await opener.open()) as FakeTransport;
    const second = (await opener.open()) as FakeTransport;
    expect([first.id, second.id, second.starts]).toEqual([1, 2, 0]);
    await opener.closeSpare();
    expect(made.some((t) => t.closed)).toBe(false);
  });

  it('closes a spare nobody asked for, once', async () => {
    const { made, create } = factory();
    const opener = new ConnectionOpener(create);
    opener.startSpare();
    await opener.closeSpare();
    await opener.closeSpare();
    expect(made.map((t) => t.closed)).toEqual([true]);
    expect(((await opener.open()) as FakeTransport).id).toBe(2);
  });

  it('opens on demand without a spare, and has nothing to close', async () => {
    const { made, create } = factory();
    const opener = new ConnectionOpener(create);
    expect(((await opener.open()) as FakeTransport).starts).toBe(0);
    await opener.closeSpare();
    expect(made.map((t) => t.closed)).toEqual([false]);
  });

  it('leaves a spare that failed to start to its user, who sees the failure when starting it', async () => {
    const { create } = factory({ failStart: true });
    const opener = new ConnectionOpener(create);
    opener.startSpare();
    const spare = await opener.open();
    await expect(spare.start()).rejects.toThrow('cannot start');
  });
});
