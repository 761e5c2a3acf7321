import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { testWithDeadline, warmUpRegExpSandbox } from './regexp-sandbox.js';
import { shorten } from '../tool-schema/shorten.js';
import { parseRegExp, type RegexNode } from './regexp-parse.js';

/**
 * A conservative static ReDoS detector for untrusted `pattern`/`patternProperties`.
 *
 * It flags a repeated group (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that
 *  - contains another repeating quantifier at any depth: `(a+)+`, `(a*)*`, `(.*a){3}`, `([a-z]+,)*`;
 *  - or contains an alternation whose branches may start with the same character: `(a|a)*`, `(a|ab)+`, `(\d|1)*`.
 *
 * Limits: it over-rejects safe shapes such as `([a-z]+,)*` (star height 2 without ambiguity) and `(ab|ac)*`.
 * It does not detect polynomial backtracking between adjacent quantifiers (`\d+\d+$`, `.*.*=`), optional
 * atoms under a repeat (`(a?)*`), or overlap hidden behind lookarounds and backreferences. Those are
 * bounded (polynomial) on the short strings this suite generates.
 * Patterns the parser does not understand are rejected too.
 */
export function backtrackingRisk(pattern: string): string | undefined {
  const alternatives = parseRegExp(pattern);
  if (alternatives === undefined) return 'its shape could not be analysed';
  return riskInAlternatives(alternatives);
}

function riskInAlternatives(alternatives: readonly RegexNode[][]): string | undefined {
  for (const sequence of alternatives) {
    for (const node of sequence) {
      const risk = riskIn(node);
      if (risk !== undefined) return risk;
    }
  }
  return undefined;
}

function riskIn(node: RegexNode): string | undefined {
  if (node.type === 'group') return riskInAlternatives(node.alternatives);
  if (node.type !== 'repeat') return undefined;
  if (node.max > 1) {
    if (containsRepetition(node.node)) return 'a repeated group contains another quantifier';
    if (containsAmbiguousAlternation(node.node))
      return 'a repeated group has alternatives that can match the same text';
  }
  return riskIn(node.node);
}

function childrenOf(node: RegexNode): RegexNode[] {
  if (node.type === 'group') return node.alternatives.flat();
  if (node.type === 'repeat') return [node.node];
  return [];
}

function containsRepetition(node: RegexNode): boolean {
  if (node.type === 'repeat' && node.max > 1) return true;
  return childrenOf(node).some(containsRepetition);
}

function containsAmbiguousAlternation(node: RegexNode): boolean {
  if (node.type === 'group' && node.alternatives.length > 1 && alternativesOverlap(node.alternatives)) return true;
  return childrenOf(node).some(containsAmbiguousAlternation);
}

/** The first consuming node of a branch; `null` when the branch consumes nothing. */
function firstConsumer(sequence: readonly RegexNode[]): RegexNode | null {
  for (const node of sequence) {
    if (node.type === 'assertion') continue;
    if (node.type === 'group' && node.lookaround) continue;
    return node;
  }
  return null;
}

function alternativesOverlap(alternatives: readonly RegexNode[][]): boolean {
  const firsts = alternatives.map(firstConsumer);
  for (let i = 0; i < firsts.length; i += 1) {
    for (let j = i + 1; j < firsts.length; j += 1) {
      if (mayStartAlike(firsts[i] ?? null, firsts[j] ?? null)) return true;
    }
  }
  return false;
}

function mayStartAlike(left: RegexNode | null, right: RegexNode | null): boolean {
  if (left === null || right === null) return false;
  if (left.type !== 'char' || right.type !== 'char') return true;
  if (left.literal !== undefined && right.literal !== undefined) return left.literal === right.literal;
  if (left.literal !== undefined) return singleCharMatches(right.source, left.literal);
  if (right.literal !== undefined) return singleCharMatches(left.source, right.literal);
  return true;
}

/** Safe to run: the expression is a single character matcher, so it cannot backtrack. */
function singleCharMatches(source: string, char: string): boolean {
  try {
    return new RegExp(`^(?:${source})$`, 'u').test(char);
  } catch {
    return true;
  }
}

export function isPatternSafe(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  return backtrackingRisk(pattern) === undefined;
}

function guard(pattern: string, flags: string): RegExpLike {
  new RegExp(pattern, flags);
  const risk = backtrackingRisk(pattern);
  if (risk !== undefined) throw new Error(`pattern ${shorten(pattern, 80)} may backtrack catastrophically (${risk})`);
  // Compiling comes before testing: starting the worker now means the first test rarely waits for its start-up.
  warmUpRegExpSandbox();
  // ajv keys its cache of compiled patterns by toString(), as for a RegExp.
  const deadlined: RegExpLike & { toString(): string } = {
    test: (text: string) => testWithDeadline(pattern, flags, text),
    toString: () => `/${pattern}/${flags}`,
  };
  return deadlined;
}

/**
 * ajv's `code.regExp` engine: syntax errors and risky patterns throw, which fails the compilation; the others run on
 * a worker with a deadline (regexp-sandbox.ts), which throws RegExpTimeoutError out of the validation.
 */
export const guardedRegExp: RegExpEngine = Object.assign(guard, { code: 'guardedRegExp' });
