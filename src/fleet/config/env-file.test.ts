import { describe, expect, it } from 'vitest';
import { parseEnvFile } from './env-file.js';

describe('parseEnvFile', () => {
  it('reads NAME=value lines, export, comments, quotes', () => {
    const text = [
      '# comment',
      '',
      'A=1',
      'export B = two words ',
      'C="double # kept\\nline"',
      "D='single \\n as written'",
      'E=value # trailing comment',
      'F=',
      'not a line',
      '=no-name',
      'G=a=b',
      '__proto__=x',
    ].join('\r\n');
    expect(parseEnvFile(text)).toEqual({
      A: '1',
      B: 'two words',
      C: 'double # kept\nline',
      D: 'single \\n as written',
      E: 'value',
      F: '',
      G: 'a=b',
      ['__proto__']: 'x',
    });
  });
});
