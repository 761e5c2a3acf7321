/**
 * JSON with comments (`//`, `/* … *\/`) and trailing commas, as VS Code reads its mcp.json; plain JSON parses the same.
 * A small parser of our own so that an error names its line and column (Node 20's JSON.parse names neither).
 */

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line} column ${column}`);
    this.name = 'JsoncError';
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

export function parseJsonc(text: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let at = 0;

  const fail = (message: string, offset = at): never => {
    const before = source.slice(0, offset);
    const line = before.split('\n').length;
    throw new JsoncError(message, line, offset - before.lastIndexOf('\n'));
  };
  const describe = () => (at >= source.length ? 'end of file' : JSON.stringify(source[at]));

  const skip = () => {
    for (;;) {
      const c = source[at];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') at++;
      else if (c === '/' && source[at + 1] === '/') {
        const end = source.indexOf('\n', at);
        at = end === -1 ? source.length : end;
      } else if (c === '/' && source[at + 1] === '*') {
        const end = source.indexOf('*/', at + 2);
        if (end === -1) fail('unterminated comment');
        at = end + 2;
      } else return;
    }
  };

  const string = (): string => {
    const start = at;
    at++;
    for (;;) {
      const c = source[at];
      if (c === undefined || c === '\n') fail('unterminated string', start);
      if (c === '\\') at += 2;
      else if (c === '"') break;
      else at++;
    }
    at++;
    try {
      return JSON.parse(source.slice(start, at)) as string;
    } catch {
      return fail('invalid string', start);
    }
  };

  const value = (): unknown => {
    skip();
    const c = source[at];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    for (const [word, literal] of LITERALS) {
      if (source.startsWith(word, at)) {
        at += word.length;
        return literal;
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(source);
    if (number) {
      at += number[0].length;
      return Number(number[0]);
    }
    return fail(`unexpected ${describe()}`);
  };

  // Each list (object members, array items) ends at `close`, its items separated by commas, a trailing one allowed.
  const list = (close: string, item: () => void) => {
    at++;
    for (;;) {
      skip();
      if (source[at] === close) break;
      item();
      skip();
      if (source[at] === ',') at++;
      else if (source[at] !== close) fail(`expected "," or "${close}", found ${describe()}`);
    }
    at++;
  };

  const object = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    list('}', () => {
      if (source[at] !== '"') fail(`expected a property name in double quotes, found ${describe()}`);
      const key = string();
      skip();
      if (source[at] !== ':') fail(`expected ":" after property name, found ${describe()}`);
      at++;
      // defineProperty: a key named "__proto__" stays an own property, as JSON.parse keeps it.
      Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
    });
    return out;
  };

  const array = (): unknown[] => {
    const out: unknown[] = [];
    list(']', () => out.push(value()));
    return out;
  };

  const result = value();
  skip();
  if (at < source.length) fail(`unexpected ${describe()} after the value`);
  return result;
}
