import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BudgetSpentError, RequestGate } from './request-gate.js';

const START = Date.UTC(2026, 7, 1);

/** Starts `count` acquisitions at once and records the fake-clock time each one is let through. */
async function releaseTimes(gate: RequestGate, count: number, runForMs: number): Promise<number[]> {
  const times: number[] = [];
  const all = Array.from({ length: count }, () => gate.acquire().then(() => times.push(Date.now() - START)));
  await vi.advanceTimersByTimeAsync(runForMs);
  await Promise.all(all);
  return times;
}

describe('RequestGate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets requests through immediately when there is no cap', async () => {
    expect(await releaseTimes(new RequestGate(), 5, 0)).toEqual([0, 0, 0, 0, 0]);
  });

  it('spaces requests 1/maxRps apart, first come first served', async () => {
    expect(await releaseTimes(new RequestGate({ maxRps: 4 }), 5, 1000)).toEqual([0, 250, 500, 750, 1000]);
  });

  it('accepts a fractional rate: 0.5 is one request every 2 s', async () => {
    const gate = new RequestGate({ maxRps: 0.5 });
    const times: number[] = [];
    const first = gate.acquire().then(() => times.push(Date.now() - START));
    const second = gate.acquire().then(() => times.push(Date.now() - START));
    await vi.advanceTimersByTimeAsync(1999);
    expect(times).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, second]);
    expect(times).toEqual([0, 2000]);
  });

  it('does not save up unused slots: after a quiet spell the next request goes at once, the one after waits', async () => {
    const gate = new RequestGate({ maxRps: 10 });
    await gate.acquire();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await releaseTimes(gate, 3, 200)).toEqual([5000, 5100, 5200]);
  });

  it('spaces requests from when the previous one actually went: a late timer (busy event loop) releases no burst', async () => {
    const gate = new RequestGate({ maxRps: 10 });
    await gate.acquire();
    const times: number[] = [];
    const late = gate.acquire().then(() => times.push(Date.now() - START));
    vi.setSystemTime(START + 500); // the clock moves on while no timer can run
    await vi.advanceTimersByTimeAsync(100);
    await late;
    const next = gate.acquire().then(() => times.push(Date.now() - START));
    await vi.advanceTimersByTimeAsync(100);
    await next;
    expect(times).toEqual([600, 700]);
  });

  it('gives up a waiting request when the deadline passes while it waits', async () => {
    const gate = new RequestGate({ maxRps: 1, deadline: START + 1500 });
    await gate.acquire();
    const waiting = gate.acquire();
    const outcome = waiting.catch((error: unknown) => error);
    vi.setSystemTime(START + 2000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await outcome).toBeInstanceOf(BudgetSpentError);
    expect(String(await outcome)).toMatch(/budget was spent while a request waited for its turn \(--max-rps 1/);
  });

  it('holds every request back while a Retry-After runs, then resumes the spacing', async () => {
    const gate = new RequestGate({ maxRps: 10 });
    await gate.acquire();
    gate.holdOff(3000);
    expect(await releaseTimes(gate, 2, 3100)).toEqual([3000, 3100]);
  });

  it('holds requests back on a Retry-After even without a cap', async () => {
    const gate = new RequestGate();
    gate.holdOff(1500);
    expect(await releaseTimes(gate, 2, 1500)).toEqual([1500, 1500]);
  });

  it('refuses at once a request whose turn would come after the deadline, and says why', async () => {
    const gate = new RequestGate({ maxRps: 1, deadline: START + 1500 });
    const times = await releaseTimes(gate, 2, 1000);
    expect(times).toEqual([0, 1000]);
    const late = gate.acquire();
    await expect(late).rejects.toBeInstanceOf(BudgetSpentError);
    await expect(late).rejects.toThrow(/--max-rps 1 \(one request every 1 s\).*500 ms past the budget/);
  });

  it('refuses a request that would wait for a Retry-After past the deadline', async () => {
    const gate = new RequestGate({ deadline: START + 10_000 });
    gate.holdOff(20_000);
    await expect(gate.acquire()).rejects.toThrow(/Retry-After/);
  });

  it('lets a request that needs no wait through even after the deadline (the runner decides what still starts)', async () => {
    const gate = new RequestGate({ maxRps: 1, deadline: START - 1 });
    await expect(gate.acquire()).resolves.toBeUndefined();
  });

  it('rejects a cap that is not a positive number', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new RequestGate({ maxRps: bad })).toThrow(RangeError);
  });
});
