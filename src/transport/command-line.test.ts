import { describe, expect, it } from 'vitest';
import { joinCommandLine, splitCommandLine } from './command-line.js';

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

describe('joinCommandLine', () => {
  it.each([
    [['node', '/srv/server.js', '--port', '3000']],
    [['node', 'dir with space/s.js', "it's", '', '$HOME', 'a"b', 'back\\slash', 'tab\there', '--flag=x y']],
    [['npx', '-y', '@modelcontextprotocol/server-memory']],
  ])('splits back into the same words: %j', (argv) => {
    expect(splitCommandLine(joinCommandLine(argv))).toEqual(argv);
  });

  it('quotes only the words that need it', () => {
    expect(joinCommandLine(['node', 'a b.js', '-x'])).toBe("node 'a b.js' -x");
  });
});
