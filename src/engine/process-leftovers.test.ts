import { describe, expect, it } from 'vitest';
import { RegExpTimeoutError, testWithDeadline } from '../schema/arguments/regexp-sandbox.js';
import { nextSeq } from '../transport/sequence.js';
import { resetBetweenAudits } from './process-leftovers.js';

describe('resetBetweenAudits', () => {
  it("numbers the next audit's evidence from 1 and forgets the patterns that overran, as in a fresh process", () => {
    nextSeq();
    nextSeq();
    expect(() => testWithDeadline('w*w*w*w*y', 'u', 'w'.repeat(4000))).toThrow(RegExpTimeoutError);
    resetBetweenAudits();
    expect(nextSeq()).toBe(1);
    expect(testWithDeadline('w*w*w*w*y', 'u', 'y'.repeat(4001))).toBe(true);
  });
});
