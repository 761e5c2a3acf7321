import { describe, expect, it } from 'vitest';
import { stderrExcerpt } from './stderr-excerpt.js';

const NODE_MISSING_MODULE = `node:internal/modules/cjs/loader:1228
  throw err;
  ^

Error: Cannot find module '/srv/dist/server.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)
    at Module._load (node:internal/modules/cjs/loader:1051:27)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:174:12)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2`;

describe('stderrExcerpt', () => {
  it("keeps the first lines, the line naming the error and the last lines: Node's missing module is not lost", () => {
    const excerpt = stderrExcerpt(NODE_MISSING_MODULE);
    expect(excerpt).toContain("Error: Cannot find module '/srv/dist/server.js'");
    expect(excerpt[0]).toBe('node:internal/modules/cjs/loader:1228');
    expect(excerpt.at(-1)).toBe('Node.js v20.20.2');
    expect(excerpt.length).toBeLessThanOrEqual(4 + 1 + 3);
  });

  it('finds a telling line in the middle of a long trace', () => {
    const text = [
      'starting',
      'loading config',
      'a',
      'b',
      ...Array.from({ length: 30 }, (_, i) => `  at frame ${i}`),
      'Traceback: ModuleNotFoundError: no module named x',
      'x',
      'y',
      'z',
    ].join('\n');
    const excerpt = stderrExcerpt(text);
    expect(excerpt.slice(0, 4)).toEqual(['starting', 'loading config', 'a', 'b']);
    expect(excerpt).toContain('Traceback: ModuleNotFoundError: no module named x');
    expect(excerpt.slice(-3)).toEqual(['x', 'y', 'z']);
  });

  it('keeps a short stderr whole, without blank lines, and clips long lines', () => {
    expect(stderrExcerpt('one\n\ntwo\r\n')).toEqual(['one', 'two']);
    expect(stderrExcerpt('')).toEqual([]);
    expect(stderrExcerpt('x'.repeat(1000))[0]).toHaveLength(241);
  });
});
