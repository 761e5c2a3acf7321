import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './command-line.js';

describe('splitCommandLine', () => {
  it.each([
    ['node server.js --flag', ['node', 'server.js', '--flag']],
    ['  node   a  ', ['node', 'a']],
    [`node "dir with space/s.js" 'single $HOME' x`, ['node', 'dir with space/s.js', 'single $HOME', 'x']],
    [`echo "a \\"quoted\\" word" b\\ c`, ['echo', 'a "quoted" word', 'b c']],
    [`x ''`, ['x', '']],
    [`a"b"'c'`, ['abc']],
  ])('%s', (line, argv) => {
    expect(splitCommandLine(line)).toEqual(argv);
  });

  it('rejects an unterminated quote', () => {
    expect(() => splitCommandLine(`node "oops`)).toThrow(/unterminated/);
  });
});
