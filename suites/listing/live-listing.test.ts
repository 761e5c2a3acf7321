import { describe, expect, it } from 'vitest';
import { describeDifference } from './live-listing.js';

describe('describeDifference', () => {
  it('puts "-" tools on the first side, "+" tools on the second, "~" as defined differently', () => {
    expect(
      describeDifference(['-recent_calls', '+beta', '~echo'], ['the calling connection', 'the call-free connection']),
    ).toBe(
      'only on the calling connection: recent_calls; only on the call-free connection: beta; defined differently: echo',
    );
  });

  it('leaves out empty sides and counts what it cuts', () => {
    expect(describeDifference(['+a', '+b', '+c'], ['x', 'y'], 2)).toBe('only on y: a, b (+1 more)');
  });
});
