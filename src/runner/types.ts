import type { Wire } from '../model/wire.js';
import type { Exchange } from '../transport/types.js';


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
export type SpecSentences = Partial<Record<Wire, readonly SpecSentence[]>>;
/** Keyword class used in reports: a MUST violation fails, a SHOULD violation warns. */
export type Keyword = 'MUST' | 'SHOULD' | 'MAY';

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
}

export interface CheckDefinition {
  /** Requirement ID from the catalog (may be refined with a suffix). */
  id: string;
  keyword: KeywordText;
  title: string;
  /** Spec page and anchor, relative to the revision root, e.g. `server/tools#capabilities`. */
  specRef: string;
  /** Other catalog requirement IDs this check also covers (when its own ID is a refinement). */
  covers?: readonly string[];
  /** Area used for grouping (JUnit classname, console sections). */
  area: string;
  /** Wire versions the requirement exists in (exactly the keys of `sentences`); on others the check is skipped with that reason. */
  wires: readonly Wire[];
  /** The verbatim sentences the verdict rests on, per wire (test/spec-sentences.test.ts reads them in ../shared/spec). */
  sentences: SpecSentences;
  needs?: readonly Need[];
  /**
   * `serial` checks run one at a time after the concurrent `main` ones (probes with broken requests, whose error
   * answers may carry a null id and so must be the only request in flight); `search` checks (property searches, which
   * use what is left of the budget) run concurrently after those; `final` checks run after those and look at
   * everything recorded; `last` checks run after every other and may end what the others shared (the process of
   * a shared connection).
   */
  phase?: 'main' | 'serial' | 'search' | 'final' | 'last';
  /**
   * Called when the run starts, for a check that applies: starts slow set-up the check will need (a connection to
   * a new process), so that it overlaps with other checks. Sends nothing the check would not send anyway.
   */
  prepare?(ctx: import('./context.js').CheckContext): void;
  run(ctx: import('./context.js').CheckContext): Promise<Outcome[]> | Outcome[];
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

const CLASS_RANK: Record<Keyword, number> = { MUST: 0, SHOULD: 1, MAY: 2 };

/** The sentence a verdict on this wire rests on: the first of the strongest keyword class. */
export function governingSentence(check: Pick<CheckDefinition, 'sentences'>, wire: Wire): SpecSentence | undefined {
  const list = check.sentences[wire] ?? [];
  let best: SpecSentence | undefined;
  for (const sentence of list) {
    if (!best || CLASS_RANK[keywordClass(sentence.keyword)] < CLASS_RANK[keywordClass(best.keyword)]) best = sentence;
  }
  return best;
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
}
