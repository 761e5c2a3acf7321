import { describe, expect, it } from 'vitest';
import { depthLine } from './depth-line.js';

describe('depthLine', () => {
  it('says what was called, what was skipped for it, and the flag', () => {
    expect(depthLine({ toolsListed: 12, toolsCalled: 3, skippedForNoCallableTool: 14, deeperWith: '--allow-tools x,y' })).toBe(
      'called 3 of 12 tools; 14 checks skipped for want of a callable tool — --allow-tools x,y to go deeper',
    );
    expect(depthLine({ toolsListed: 1, toolsCalled: 1, skippedForNoCallableTool: 0 })).toBe('called 1 of 1 tool');
    expect(depthLine({ toolsListed: 0, toolsCalled: 0, skippedForNoCallableTool: 1 })).toBe('the server lists no tools; 1 check skipped for want of a callable tool');
  });
});
