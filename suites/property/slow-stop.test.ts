import { describe, expect, it } from 'vitest';
import { SLOW_SEARCH } from '../../src/property/index.js';
import { SEARCH_PHASE, slowStopFor } from './property-search.js';

describe('slowStopFor', () => {
  it('keeps SLOW_SEARCH (100 ms per case, ten cases at least) for a server with few tools', () => {
    expect(slowStopFor(50, 4, 3)).toEqual({ allowanceMs: SLOW_SEARCH.msPerCase * 50, minCases: SLOW_SEARCH.minCases });
  });

  it('gives each search an equal share of the phase when that is smaller, with one case at least', () => {
    // 25 tools, two case streams each, four calls in flight: 15 s × 4 / 50 = 1.2 s per search.
    expect(slowStopFor(50, 4, 25)).toEqual({
      allowanceMs: (SEARCH_PHASE.ms * 4) / (25 * SEARCH_PHASE.streams),
      minCases: 1,
    });
  });

  it('lets --runs buy depth: the share grows with the runs', () => {
    expect(slowStopFor(200, 4, 25).allowanceMs).toBe(4 * slowStopFor(50, 4, 25).allowanceMs);
    expect(slowStopFor(200, 4, 25).allowanceMs).toBeGreaterThan(slowStopFor(50, 4, 25).allowanceMs);
  });
});
