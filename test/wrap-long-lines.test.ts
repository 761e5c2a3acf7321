import { describe, expect, it } from 'vitest';
import { canonicalTree, commentWords, wrapLongLines } from '../scripts/wrap-long-lines.mjs';

const WORDS = 'the quick brown fox jumps over the lazy dog while `a code span stays whole` and';
const LONG = `${WORDS} ${WORDS} ${WORDS} end.`;

/** The value of `name` once `code` (plain JavaScript) has run. */
function valueOf(code: string, name: string): unknown {
  return new Function(`${code}\nreturn ${name};`)();
}

const longest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('scripts/wrap-long-lines.mjs', () => {
  it('splits a long string into a concatenation of the same value, cut after spaces, each line within 120', () => {
    const code =
      `const x = 1;\nconst s = foo('${LONG.replace(/'/g, "\\'")}', 2);\nfunction foo(a, b) { return a + ` + `b; }`;
    const wrapped = wrapLongLines('a.js', code);
    expect(wrapped).not.toBe(code);
    expect(longest(wrapped)).toBeLessThanOrEqual(120);
    expect(valueOf(wrapped, 's')).toBe(valueOf(code, 's'));
    expect(canonicalTree('a.js', wrapped)).toBe(canonicalTree('a.js', code));
    expect(wrapLongLines('a.js', wrapped)).toBe(wrapped);
  });

  it('cuts a text with no space after ; , } or ), never inside an escape', () => {
    const piece = String.raw`if(a){b(\'x\u{7d}\x3b\;\n\'),c()};`;
    const code = `const s = run('${piece.repeat(12)}');\nfunction run(x) { return x; }`;
    const wrapped = wrapLongLines('a.js', code);
    expect(longest(wrapped)).toBeLessThanOrEqual(120);
    expect(valueOf(wrapped, 's')).toBe(valueOf(code, 's'));
    expect(canonicalTree('a.js', wrapped)).toBe(canonicalTree('a.js', code));
  });

  it('splits a template literal outside its substitutions, which are evaluated once each, in order', () => {
    const code = [
      'let n = 0;',
      'const next = () => ++n;',
      'const s = `${next()} ' +
        LONG.replace(/`/g, '\\`') +
        ' ${next()} ${"x".repeat(3)} \\u00e9\\n ' +
        WORDS.replace(/`/g, '\\`') +
        '`;',
    ].join('\n');
    const wrapped = wrapLongLines('a.ts', code);
    expect(wrapped.split('\n').length).toBeGreaterThan(3);
    expect(valueOf(wrapped, '[s, n]')).toEqual(valueOf(code, '[s, n]'));
    expect(canonicalTree('a.ts', wrapped)).toBe(canonicalTree('a.ts', code));
  });

  it('leaves strings where a concatenation is not allowed or would change a type', () => {
    const long = `'${'key'.repeat(45)}'`;
    const prose = `'${LONG.replace(/[`']/g, '')}'`;
    const code = [
      `import { a } from ${long};`,
      `export type T = ${long} | ${prose};`,
      `const o = { ${long}: 1 };`,
      `enum E { A = ${prose} }`,
      `const k = ${long};`,
      `const t = [${long}] as const;`,
      `tag\`${LONG.replace(/`/g, '')}\`;`,
      `it(${prose}, () => {});`,
      `o[${prose}];`,
      `${prose};`,
    ].join('\n');
    expect(wrapLongLines('a.ts', code)).toBe(code);
  });

  it('re-wraps long comments at spaces, keeping code spans, directives and their words', () => {
    const code = [
      `// ${LONG}`,
      '// the next line of the paragraph',
      '//',
      `// eslint-disable-next-line no-console -- ${LONG}`,
      `/** ${LONG} */`,
      'function f() {',
      '  /**',
      `   * - ${LONG}`,
      '   * @param a the first',
      '   */',
      '}',
    ].join('\n');
    const wrapped = wrapLongLines('a.ts', code);
    const lines = wrapped.split('\n');
    expect(lines.filter((line) => line.length > 120)).toEqual([`// eslint-disable-next-line no-console -- ${LONG}`]);
    expect(commentWords('a.ts', wrapped)).toBe(commentWords('a.ts', code));
    const spans = (text: string) => text.split('`a code span stays whole`').length - 1;
    expect(spans(wrapped)).toBe(spans(code));
    expect(lines).toContain('/**');
    // The list item's text hangs under its first word.
    expect(lines.filter((line) => /^ {3}\* {3}\S/.test(line)).length).toBeGreaterThan(0);
    expect(lines).toContain('   * @param a the first');
    expect(wrapLongLines('a.ts', wrapped)).toBe(wrapped);
  });

  it('the proof can fail: a changed literal or operand order is a different tree', () => {
    const tree = canonicalTree('a.ts', "const s = 'ab' + x;");
    expect(canonicalTree('a.ts', "const s = ('a' + 'b') + x;")).toBe(tree);
    expect(canonicalTree('a.ts', "const s = 'a' + 'b' + x;")).toBe(tree);
    expect(canonicalTree('a.ts', "const s = 'a' + ('b' + x);")).not.toBe(tree);
    expect(canonicalTree('a.ts', "const s = 'ab ' + x;")).not.toBe(tree);
    expect(canonicalTree('a.ts', "const s = x + 'ab';")).not.toBe(tree);
  });
});
