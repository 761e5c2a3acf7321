import { describe, expect, it } from 'vitest';
import { depthLine } from './depth-line.js';

describe('depthLine', () => {
  it('says what was called, what was skipped for it, and the flag', () => {
    expect(
      depthLine({ toolsListed: 12, toolsCalled: 3, skippedForNoCallableTool: 14, deeperWith: '--allow-tools x,y' }),
    ).toBe('called 3 of 12 tools; 14 checks skipped for want of a callable tool — --allow-tools x,y to go deeper');
    expect(depthLine({ toolsListed: 1, toolsCalled: 1, skippedForNoCallableTool: 0 })).toBe('called 1 of 1 tool');
    expect(depthLine({ toolsListed: 0, toolsCalled: 0, skippedForNoCallableTool: 1 })).toBe(
      'the server lists no tools; 1 check skipped for want of a callable tool',
    );
  });

  it('offers --sandbox as the safe way, warns of the tools an allow flag would call, and says when it was sandboxed', () => {
    expect(depthLine({ toolsListed: 3, toolsCalled: 1, skippedForNoCallableTool: 2, deeperWith: '--sandbox' })).toBe(
      'called 1 of 3 tools; 2 checks skipped for want of a callable tool — --sandbox to go deeper safely',
    );
    const risky = {
      toolsListed: 8,
      toolsCalled: 1,
      skippedForNoCallableTool: 0,
      deeperWith: '--allow-all-tools',
      notReadOnly: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
    };
    expect(depthLine(risky)).toBe(
      'called 1 of 8 tools — --allow-all-tools to go deeper (careful: a, b, c, d, e and 2 more are not ' +
        "annotated read-only and would run on the server's real data)",
    );
    expect(depthLine({ ...risky, deeperWith: '--allow-tools git_reset', notReadOnly: ['git_reset'] })).toContain(
      '(careful: git_reset is not annotated read-only',
    );
    expect(depthLine({ toolsListed: 2, toolsCalled: 2, skippedForNoCallableTool: 0, sandboxed: true })).toBe(
      'called 2 of 2 tools (sandboxed)',
    );
  });
});
