import { REVISIONS, type Revision } from '../core/revision.js';
import type { Exchange } from './exchange.js';

/**
 * What kind of text backs a verdict: a BCP 14 keyword as the sentence states it, a structural rule of schema.json
 * (`required`, a type, a `const`), or text that requires nothing by itself (a descriptive sentence, a lower-case
 * "should" in a schema.json description), which can only ever warn.
 */
export type KeywordText =
  | 'MUST'
  | 'MUST NOT'
  | 'REQUIRED'
  | 'SHALL'
  | 'SHALL NOT'
  | 'SHOULD'
  | 'SHOULD NOT'
  | 'RECOMMENDED'
  | 'NOT RECOMMENDED'
  | 'MAY'
  | 'schema.json structural rule'
  | 'descriptive'
  | 'lower-case should in schema.json';

/** One sentence of a revision's spec that a check enforces. */
export interface SpecSentence {
  /**
   * Where it is, relative to the revision root: a page and its heading anchor (`server/tools#error-handling`; no anchor
   * for text above the page's first heading), or a
   * JSON pointer into schema.json (`schema.json#/$defs/Tool/required`).
   */
  ref: string;
  /**
   * The sentence verbatim (compared with whitespace collapsed, `**`, backticks and link targets removed; ` … ` marks
   * an elision); for a schema.json structural rule, the JSON value at the pointer.
   */
  text: string;
  keyword: KeywordText;
}

/** The sentences a check enforces, per wire: a check runs only on the wires listed here. */
export type SpecSentences = Partial<Record<Revision, readonly SpecSentence[]>>;

/** The revisions a check applies to: those with a sentence for it, newest first. */
export function revisionsOf(check: { sentences: SpecSentences }): Revision[] {
  return REVISIONS.filter((wire) => (check.sentences[wire]?.length ?? 0) > 0);
}
/**
 * The strength of a finding's backing, which decides its verdict: a MUST-class violation fails, any other warns at
 * most. Kept in report.json as `keyword` (MUST also covers schema.json structural rules, SHOULD descriptive text);
 * reports label a finding with its {@link KeywordLabel} instead.
 */
export type Keyword = 'MUST' | 'SHOULD' | 'MAY';

/**
 * The one label every report gives the kind of text a finding rests on: MUST (MUST, MUST NOT, REQUIRED, SHALL, SHALL
 * NOT), SCHEMA (a schema.json structural rule), SHOULD (SHOULD, SHOULD NOT, RECOMMENDED, NOT RECOMMENDED), MAY, and
 * DESCRIPTIVE (text that requires nothing by itself: a descriptive sentence, a lower-case "should" in schema.json).
 */
export type KeywordLabel = 'MUST' | 'SCHEMA' | 'SHOULD' | 'MAY' | 'DESCRIPTIVE';

export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

export type Need = 'http' | 'stdio' | 'live' | 'tool-call';

export interface EvidenceNote {
  note: string;
  data?: unknown;
}

export type Evidence = Exchange | EvidenceNote;

export interface Outcome {
  /** `fail` means "the requirement is violated"; the runner turns it into `warn` for SHOULD checks. */
  status: Status;
  message: string;
  evidence?: Evidence[];
  /** Set when the outcome concerns one tool. */
  tool?: string;
  /** Replay instructions (property-based checks). */
  replay?: string;
  /** What was expected, shown next to a failure. */
  expected?: string;
  /**
   * The sentence this outcome rests on when it is not the check's governing one: a weaker sentence of the same check
   * (a SHOULD, or descriptive text) for a finding that is only advisory. It must be one of the check's sentences on the
   * wire in use (so the sentence test finds it on its page); otherwise the governing sentence is used.
   */
  sentence?: SpecSentence;
}

export function keywordClass(keyword: KeywordText): Keyword {
  switch (keyword) {
    case 'MUST':
    case 'MUST NOT':
    case 'REQUIRED':
    case 'SHALL':
    case 'SHALL NOT':
    case 'schema.json structural rule':
      return 'MUST';
    case 'SHOULD':
    case 'SHOULD NOT':
    case 'RECOMMENDED':
    case 'NOT RECOMMENDED':
    case 'descriptive':
    case 'lower-case should in schema.json':
      return 'SHOULD';
    case 'MAY':
      return 'MAY';
  }
}

export function keywordLabel(keyword: KeywordText): KeywordLabel {
  switch (keyword) {
    case 'schema.json structural rule':
      return 'SCHEMA';
    case 'descriptive':
    case 'lower-case should in schema.json':
      return 'DESCRIPTIVE';
    default:
      return keywordClass(keyword);
  }
}

const CLASS_RANK: Record<Keyword, number> = { MUST: 0, SHOULD: 1, MAY: 2 };

/** The sentence a verdict on this wire rests on: the first of the strongest keyword class. */
export function governingSentence(check: { sentences: SpecSentences }, wire: Revision): SpecSentence | undefined {
  const list = check.sentences[wire] ?? [];
  let best: SpecSentence | undefined;
  for (const sentence of list) {
    if (!best || CLASS_RANK[keywordClass(sentence.keyword)] < CLASS_RANK[keywordClass(best.keyword)]) best = sentence;
  }
  return best;
}

/**
 * The sentence an outcome's verdict rests on: the one the outcome names, when the check quotes it on this wire, else
 * the governing one.
 */
export function restingSentence(
  check: { sentences: SpecSentences },
  outcome: Pick<Outcome, 'sentence'>,
  wire: Revision,
): SpecSentence | undefined {
  const named = outcome.sentence;
  const own = named
    ? (check.sentences[wire] ?? []).find((s) => s.ref === named.ref && s.text === named.text)
    : undefined;
  return own ?? governingSentence(check, wire);
}

/** Keywords that name a requirement; the other texts (descriptive, a lower-case should) only describe. */
export function isRequirementText(keyword: KeywordText): boolean {
  return keyword !== 'descriptive' && keyword !== 'lower-case should in schema.json';
}

export interface CheckResult {
  id: string;
  title: string;
  keyword: Keyword;
  keywordText: KeywordText;
  /** The label reports show for `keywordText` (keywordLabel); absent in reports written before it was added. */
  keywordLabel?: KeywordLabel;
  area: string;
  specRef: string;
  /** The published page of `specRef`, in the revision of the wire in use. */
  specUrl: string;
  /** The sentence the verdict rests on, verbatim, for the wire in use. */
  quote?: string;
  status: Status;
  message: string;
  expected?: string;
  tool?: string;
  evidence: Evidence[];
  replay?: string;
  durationMs: number;
  /** A fail or warn listed in the --baseline file: reported, but it does not fail the run. */
  baselined?: boolean;
  /**
   * A skip that calling a tool would have avoided: the check judges tool calls (`needs: ['tool-call']`), and the safety
   * options (read-only tools only, unless --allow-tools or --allow-all-tools; --skip-tools) left no listed tool to
   * call.
   */
  skippedFor?: 'no-callable-tool';
}
