import { isPatternSafe } from './regexp-guard.js';
import { RegExpTimeoutError, testWithDeadline } from './regexp-sandbox.js';
import { parseRegExp, type RegexNode } from './regexp-parse.js';
import { codePointLength } from './schema-node.js';

const REPRESENTATIVES = ['a', 'b', 'x', 'A', 'Z', '0', '1', '9', '_', '-', '.', ' ', '@', '/', ':', '+', '#'];
const MAX_REPEAT = 1_000;
const MAX_CANDIDATE_LENGTH = 10_000;
const STRETCHES = [0, 1, 2, 3, 5, 8];

/** A character matched by a one-character expression (class, escape or `.`); running it cannot backtrack. */
function representative(source: string): string | undefined {
  const matcher = new RegExp(`^(?:${source})$`, 'u');
  const fromClass = /^\[\^?([^\\\]])/u.exec(source)?.[1];
  const candidates = fromClass === undefined ? REPRESENTATIVES : [fromClass, ...REPRESENTATIVES];
  return candidates.find((candidate) => matcher.test(candidate));
}

class Synthesizer {
  constructor(private readonly stretch: number) {}

  alternatives(alternatives: readonly RegexNode[][]): string | undefined {
    for (const sequence of alternatives) {
      const text = this.sequence(sequence);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  private sequence(nodes: readonly RegexNode[]): string | undefined {
    let text = '';
    for (const node of nodes) {
      const part = this.node(node);
      if (part === undefined) return undefined;
      text += part;
      if (text.length > MAX_CANDIDATE_LENGTH) return undefined;
    }
    return text;
  }

  private node(node: RegexNode): string | undefined {
    switch (node.type) {
      case 'char':
        return node.literal ?? representative(node.source);
      case 'assertion':
        return '';
      case 'backreference':
        return undefined;
      case 'group':
        return node.lookaround ? '' : this.alternatives(node.alternatives);
      case 'repeat': {
        const count = Math.min(node.max, Math.max(node.min, this.stretch));
        if (count === 0) return '';
        if (count > MAX_REPEAT) return undefined;
        const part = this.node(node.node);
        return part === undefined ? undefined : part.repeat(count);
      }
    }
  }
}

function* candidates(pattern: string, minLength: number): Generator<string> {
  const tree = parseRegExp(pattern);
  const padding = (text: string): string => 'a'.repeat(Math.max(0, minLength - codePointLength(text)));
  if (tree !== undefined) {
    for (const stretch of [...STRETCHES, minLength]) {
      const text = new Synthesizer(stretch).alternatives(tree);
      if (text === undefined) continue;
      yield text;
      yield text + padding(text);
      yield padding(text) + text;
    }
  }
  const length = Math.max(minLength, 1);
  for (const unit of ['a', '0', 'A', 'a0', 'example'])
    yield unit.repeat(length).slice(0, Math.max(length, unit.length));
}

/**
 * A short string matching `pattern` and the length bounds, found among a few simple candidates
 * (a synthesizer for plain sequences, classes, groups and quantifiers, then fixed fallbacks), or undefined.
 * The pattern is only run after the ReDoS guard accepted it.
 */
export function stringForPattern(pattern: string, minLength: number, maxLength: number): string | undefined {
  if (!isPatternSafe(pattern)) return undefined;
  for (const candidate of candidates(pattern, minLength)) {
    if (candidate.length > MAX_CANDIDATE_LENGTH) continue;
    const length = codePointLength(candidate);
    if (length >= minLength && length <= maxLength && matchesPattern(pattern, candidate)) return candidate;
  }
  return undefined;
}

/** Whether `text` matches `pattern`; false for a pattern the ReDoS guard refuses or that outruns its deadline. */
export function matchesPattern(pattern: string, text: string): boolean {
  if (!isPatternSafe(pattern)) return false;
  try {
    return testWithDeadline(pattern, 'u', text);
  } catch (error) {
    if (error instanceof RegExpTimeoutError) return false;
    throw error;
  }
}
