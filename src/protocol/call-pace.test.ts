import { describe, expect, it } from 'vitest';
import { CallPace } from './call-pace.js';

describe('CallPace', () => {
  it('halves on a timeout once for the calls in flight together, and grows back by one after 20 answers in good time', () => {
    const pace = new CallPace(4);
    const granted = pace.current;
    pace.record('a', 10_000, true, granted);
    pace.record('b', 10_000, true, granted);
    expect(pace.limit).toBe(2);
    pace.record('c', 10_000, true, pace.current);
    expect(pace.limit).toBe(1);
    for (let i = 0; i < 20; i += 1) pace.record('a', 50, false, pace.current);
    expect(pace.limit).toBe(2);
    expect(pace.summary()).toEqual({ max: 4, lowest: 1, halvings: 2 });
  });

  it('an answer four times slower than the tool was (and a second more) slows the pace down; a tool first seen slow does not', () => {
    const pace = new CallPace(4);
    pace.record('slow_tool', 3000, false, pace.current);
    pace.record('fast', 100, false, pace.current);
    pace.record('fast', 1400, false, pace.current);
    expect(pace.limit).toBe(4);
    pace.record('fast', 1600, false, pace.current);
    expect(pace.limit).toBe(2);
    expect(new CallPace(0).limit).toBe(1);
  });
});
