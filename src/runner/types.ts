import type { Exchange } from '../transport/types.js';

export type Wire = '2026-07-28' | '2025-11-25';
export const WIRES: readonly Wire[] = ['2026-07-28', '2025-11-25'];

/** BCP 14 keyword as the requirement catalog states it. */
export type KeywordText = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'REQUIRED' | 'RECOMMENDED';
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
  /** Wire versions the requirement exists in; on others the check is skipped with that reason. */
  wires: readonly Wire[];
  needs?: readonly Need[];
  /**
   * `serial` checks run one at a time after the concurrent `main` ones (probes with broken requests, whose error
   * answers may carry a null id and so must be the only request in flight); `final` checks run after those and look
   * at everything recorded; `last` checks run after every other and may end what the others shared (the process of
   * a shared connection).
   */
  phase?: 'main' | 'serial' | 'final' | 'last';
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
      return 'MUST';
    case 'SHOULD':
    case 'SHOULD NOT':
    case 'RECOMMENDED':
      return 'SHOULD';
    case 'MAY':
      return 'MAY';
  }
}

export interface CheckResult {
  id: string;
  title: string;
  keyword: Keyword;
  keywordText: KeywordText;
  area: string;
  specRef: string;
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
