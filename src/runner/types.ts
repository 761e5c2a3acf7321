import type { KeywordText, Need, Outcome, SpecSentences } from '../model/check.js';
import type { CheckContext } from './context.js';

/** The areas checks are grouped in (JUnit classnames, console sections), in the order a reader meets them. */
export const AREAS = [
  'discovery',
  'capabilities',
  'tools-list',
  'live-listing',
  'tool-names',
  'tool-definitions',
  'input-schema',
  'annotations',
  'icons',
  'json-schema',
  'x-mcp-header',
  'caching',
  'results',
  'request-meta',
  'meta-keys',
  'tool-calls',
  'mrtr',
  'progress',
  'logging',
  'cancellation',
  'subscriptions',
  'http-headers',
  'http',
  'property',
  'wire',
] as const;
export type Area = (typeof AREAS)[number];

/** What a result is built from: the requirement a check enforces, whatever it judges (a server or a client). */
export type JudgedCheck = Pick<CheckDefinition, 'id' | 'title' | 'keyword' | 'area' | 'specRef' | 'sentences'>;

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
  area: Area;
  /**
   * The verbatim sentences the verdict rests on, per revision (test/spec-sentences.test.ts reads them in
   * ../shared/spec): the check applies to exactly the revisions listed here, and on others it is skipped with that
   * reason.
   */
  sentences: SpecSentences;
  needs?: readonly Need[];
  /**
   * `serial` checks run after the concurrent `main` ones, one at a time where every answer comes on one channel (probes
   * with broken requests, whose error answers may carry a null id and so must be the only request in flight there;
   * over Streamable HTTP each POST carries its own answer, and they run --concurrency at once); `search` checks
   * (property searches, which use what is left of the budget) run concurrently after those; `final` checks run after
   * those and look at everything recorded; `last` checks run after every other and may end what the others shared (the
   * process of a shared connection). A check of any phase may hand back a `Pending` verdict, which the phases after it
   * overlap.
   */
  phase?: 'main' | 'serial' | 'search' | 'final' | 'last';
  /**
   * Called when the run starts, for a check that applies: starts slow set-up the check will need (a connection to
   * a new process), so that it overlaps with other checks. Sends nothing the check would not send anyway.
   */
  prepare?(ctx: CheckContext): void;
  /**
   * `prepare` opens a connection only while checks overlap (`ctx.overlaps`): at --concurrency 1 none is started ahead
   * for it.
   */
  preparesOnlyOverlapping?: true;
  /**
   * The check judges what arrives for requests that timed out (a cancelled call's late answer): its verdicts stand as
   * they are, where any other check's fail or warning that rests on a request answered after --timeout becomes a skip.
   */
  judgesLateAnswers?: true;
  run(ctx: CheckContext): Promise<Outcome[] | Pending> | Outcome[] | Pending;
}

/**
 * A verdict that waits: on a quiet window (nothing more may come for what the check sent) or on a connection of the
 * check's own. Whatever the check had to send on the audit's connection is sent before it hands this back; `verdict`
 * sends nothing more there. While checks overlap (`--concurrency` above 1) the runner goes on with the other checks
 * and collects it before the final phase (one begun in the final or last phase, at the end of the run); at
 * `--concurrency 1` it waits for it at once, as for any other check.
 */
export interface Pending {
  readonly verdict: Promise<Outcome[]>;
}

export const pending = (verdict: Promise<Outcome[]>): Pending => ({ verdict });

export const isPending = (value: Outcome[] | Pending): value is Pending => !Array.isArray(value);
