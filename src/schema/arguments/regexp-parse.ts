/**
 * A small parser for ECMAScript `u`-mode regular expressions, enough to reason about their shape
 * (the ReDoS guard) and to build a matching string (the pattern sampler). It is lenient: input is
 * expected to have already been accepted by `new RegExp(pattern, 'u')`.
 */
export type RegexNode =
  /** Matches one character. `literal` is set when exactly one known character matches. */
  | { type: 'char'; source: string; literal?: string }
  | { type: 'assertion' }
  | { type: 'backreference' }
  | { type: 'group'; alternatives: RegexNode[][]; lookaround: boolean }
  | { type: 'repeat'; node: RegexNode; min: number; max: number };

const CONTROL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', '0': '\0' };
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const QUANTIFIER = /^\{(\d+)(,(\d*))?\}/;
const HEX4 = /^[0-9a-fA-F]{4}/;
const HEX2 = /^[0-9a-fA-F]{2}/;
const BRACED = /^\{[^}]*\}/;

class Parser {
  private index = 0;

  constructor(private readonly text: string) {}

  parse(): RegexNode[][] | undefined {
    const alternatives = this.alternation();
    return alternatives !== undefined && this.index === this.text.length ? alternatives : undefined;
  }

  private peek(offset = 0): string | undefined {
    return this.text[this.index + offset];
  }

  private rest(): string {
    return this.text.slice(this.index);
  }

  private alternation(): RegexNode[][] | undefined {
    const alternatives: RegexNode[][] = [];
    for (;;) {
      const sequence = this.sequence();
      if (sequence === undefined) return undefined;
      alternatives.push(sequence);
      if (this.peek() !== '|') return alternatives;
      this.index += 1;
    }
  }

  private sequence(): RegexNode[] | undefined {
    const nodes: RegexNode[] = [];
    while (this.index < this.text.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      if (atom === undefined) return undefined;
      nodes.push(this.quantified(atom));
    }
    return nodes;
  }

  private quantified(node: RegexNode): RegexNode {
    const bounds = this.quantifier();
    if (bounds === undefined) return node;
    if (this.peek() === '?') this.index += 1;
    return { type: 'repeat', node, min: bounds.min, max: bounds.max };
  }

  private quantifier(): { min: number; max: number } | undefined {
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?') {
      this.index += 1;
      return { min: next === '+' ? 1 : 0, max: next === '?' ? 1 : Infinity };
    }
    const braces = QUANTIFIER.exec(this.rest());
    if (braces === null) return undefined;
    this.index += braces[0].length;
    const min = Number(braces[1]);
    if (braces[2] === undefined) return { min, max: min };
    return { min, max: braces[3] === '' ? Infinity : Number(braces[3]) };
  }

  private atom(): RegexNode | undefined {
    const next = this.peek();
    if (next === '^' || next === '$') {
      this.index += 1;
      return { type: 'assertion' };
    }
    if (next === '(') return this.group();
    if (next === '[') return this.characterClass();
    if (next === '\\') return this.escape();
    if (next === '.') {
      this.index += 1;
      return { type: 'char', source: '.' };
    }
    if (next === '*' || next === '+' || next === '?' || next === ')') return undefined;
    const literal = String.fromCodePoint(this.text.codePointAt(this.index)!);
    this.index += literal.length;
    return { type: 'char', source: literal, literal };
  }

  private group(): RegexNode | undefined {
    this.index += 1;
    let lookaround = false;
    const prefix = /^\?(:|=|!|<=|<!|<[^>]*>)/.exec(this.rest());
    if (prefix !== null) {
      lookaround = prefix[1] !== ':' && !(prefix[1].startsWith('<') && prefix[1] !== '<=' && prefix[1] !== '<!');
      this.index += prefix[0].length;
    }
    const alternatives = this.alternation();
    if (alternatives === undefined || this.peek() !== ')') return undefined;
    this.index += 1;
    return { type: 'group', alternatives, lookaround };
  }

  private characterClass(): RegexNode | undefined {
    const start = this.index;
    this.index += 1;
    if (this.peek() === '^') this.index += 1;
    while (this.index < this.text.length && this.peek() !== ']') {
      this.index += this.peek() === '\\' ? 2 : 1;
    }
    if (this.peek() !== ']') return undefined;
    this.index += 1;
    return { type: 'char', source: this.text.slice(start, this.index) };
  }

  private escape(): RegexNode | undefined {
    const start = this.index;
    this.index += 1;
    const letter = this.peek();
    if (letter === undefined) return undefined;
    this.index += 1;
    if (letter === 'b' || letter === 'B') return { type: 'assertion' };
    if (/[1-9]/.test(letter)) {
      while (/[0-9]/.test(this.peek() ?? '')) this.index += 1;
      return { type: 'backreference' };
    }
    if (letter === 'k') {
      const name = /^<[^>]*>/.exec(this.rest());
      if (name !== null) this.index += name[0].length;
      return { type: 'backreference' };
    }
    if (CLASS_ESCAPES.has(letter)) return { type: 'char', source: this.text.slice(start, this.index) };
    if (letter === 'p' || letter === 'P') {
      const braces = BRACED.exec(this.rest());
      if (braces === null) return undefined;
      this.index += braces[0].length;
      return { type: 'char', source: this.text.slice(start, this.index) };
    }
    return this.literalEscape(start, letter);
  }

  private literalEscape(start: number, letter: string): RegexNode | undefined {
    let literal: string | undefined = CONTROL_ESCAPES[letter];
    if (letter === 'u') literal = this.unicodeEscape();
    else if (letter === 'x') literal = this.hexEscape(HEX2);
    else if (letter === 'c') literal = this.controlLetter();
    else if (literal === undefined) literal = letter;
    if (literal === undefined) return undefined;
    return { type: 'char', source: this.text.slice(start, this.index), literal };
  }

  private unicodeEscape(): string | undefined {
    const braces = BRACED.exec(this.rest());
    if (braces !== null) {
      this.index += braces[0].length;
      const codePoint = Number.parseInt(braces[0].slice(1, -1), 16);
      return Number.isInteger(codePoint) && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : undefined;
    }
    return this.hexEscape(HEX4);
  }

  private hexEscape(shape: RegExp): string | undefined {
    const digits = shape.exec(this.rest());
    if (digits === null) return undefined;
    this.index += digits[0].length;
    return String.fromCharCode(Number.parseInt(digits[0], 16));
  }

  private controlLetter(): string | undefined {
    const letter = this.peek();
    if (letter === undefined || !/[a-zA-Z]/.test(letter)) return undefined;
    this.index += 1;
    return String.fromCharCode(letter.charCodeAt(0) % 32);
  }
}

/** The top-level alternatives of `pattern`, or undefined when the parser does not understand it. */
export function parseRegExp(pattern: string): RegexNode[][] | undefined {
  return new Parser(pattern).parse();
}
