import { createHash } from 'node:crypto';
import * as fc from 'fast-check';
import { canonicalJson } from '../core/canonical-json.js';
import { TargetGoneError } from '../protocol/errors.js';
import type { Exchange } from '../model/exchange.js';
import type { Arguments } from './argument-source.js';
import type { ReplayTarget } from './replay.js';

/**
 * Shrinking a failure costs calls to the target: at most this many calls, for at most this long, per failure. Past
 * either, the smallest failing case so far is the one reported, and the report says shrinking stopped.
 */
export const SHRINK_BUDGET = { calls: 100, ms: 10_000 } as const;

/**
 * A search whose calls are slow stops early: before a case that would take its answer time (before any failure) past
 * its allowance, `msPerCase` × runs by default, once at least `minCases` cases have run. 50 cases of a tool answering
 * in 500 ms would otherwise take 25 s per tool and property; a fast tool never comes near it.
 */
export const SLOW_SEARCH = { msPerCase: 100, minCases: 10 } as const;

/**
 * When a search stops for slow answers (SLOW_SEARCH): its answer-time allowance, and the cases it runs whatever they
 * cost.
 */
export interface SlowStop {
  allowanceMs: number;
  minCases: number;
}

/** One property over one tool: how to turn a case into arguments, and how to judge the answer. */
export interface PropertySpec<Case> {
  arbitrary: fc.Arbitrary<Case>;
  /** undefined discards the case (a valid value with nothing to mutate, for instance). */
  argumentsOf(c: Case): Arguments | undefined;
  /**
   * What is wrong with the answer, or undefined when it satisfies the property (it may make calls of its own to
   * decide).
   */
  judge(exchange: Exchange, c: Case): string | undefined | Promise<string | undefined>;
}

export interface SearchSettings {
  seed: number;
  runs: number;
  /** Replay the case at this fast-check path only (no search, no shrinking). */
  path?: string;
  /** Absolute time after which no new case starts. */
  deadline?: number;
  /** Defaults to SLOW_SEARCH's allowance for `runs`. */
  slowStop?: SlowStop;
  /** Sends one case; `canonical` is the arguments' canonical JSON text (computed once per case). */
  call(args: Arguments, canonical: string): Promise<Exchange>;
}

export interface FailedCase<Case> {
  value: Case;
  args: Arguments;
  exchange: Exchange;
  problem: string;
}

export interface SearchResult<Case> {
  /** Calls made, shrinking included. */
  calls: number;
  /** Cases run before the first failure (or in all). */
  cases: number;
  /** Hash of every argument object sent, in order: equal digests mean equal cases. */
  digest: string;
  interrupted: boolean;
  /** A case that timed out (it was cancelled); the search stopped there. */
  slow?: { args: Arguments; exchange: Exchange };
  /** The target was lost during a call this search did not make; the search stopped there. */
  abandoned?: TargetGoneError;
  /** The search stopped early because its calls were slow (SlowStop): the cases run, and their mean answer time. */
  slowed?: { cases: number; meanMs: number };
  /** fast-check gave up: too many generated cases were discarded. */
  tooManySkips: boolean;
  failure?: {
    original: FailedCase<Case>;
    shrunk: FailedCase<Case>;
    path: string;
    /** Steps that moved the counterexample to a smaller argument object. */
    shrinks: number;
    targetGone?: TargetGoneError;
    /** Set when the shrink budget ran out before fast-check had tried every smaller candidate. */
    shrinkStopped?: { calls: number; why: string };
  };
}

function isCallOf(exchange: Exchange, args: Arguments): boolean {
  const params = (exchange.request as { params?: { arguments?: unknown } } | undefined)?.params;
  return params !== undefined && canonicalJson(params.arguments) === canonicalJson(args);
}

/** Runs fast-check over the property, then describes the first failure and its shrunk form. */
export async function search<Case>(spec: PropertySpec<Case>, settings: SearchSettings): Promise<SearchResult<Case>> {
  const hash = createHash('sha256');
  let calls = 0;
  let original: FailedCase<Case> | undefined;
  let latest: FailedCase<Case> | undefined;
  let gone: TargetGoneError | undefined;
  let abandoned: TargetGoneError | undefined;
  let slow: SearchResult<Case>['slow'];
  // Target time of the calls made before any failure, and how many there were (SLOW_SEARCH).
  let searchMs = 0;
  let searchCalls = 0;
  let slowed: SearchResult<Case>['slowed'];
  const { allowanceMs, minCases } = settings.slowStop ?? {
    allowanceMs: SLOW_SEARCH.msPerCase * settings.runs,
    minCases: SLOW_SEARCH.minCases,
  };
  // Each distinct argument object is sent once: a candidate met again (shrinking revisits many) reuses its verdict.
  const verdicts = new Map<string, FailedCase<Case> | null>();
  let shrinkCalls = 0;
  // Steps that made the counterexample smaller: a move to another argument object (fast-check also counts moves
  // between cases that send the same arguments).
  let shrinkSteps = 0;
  let latestCanonical: string | undefined;
  const failed = (found: FailedCase<Case>, canonical: string): false => {
    if (original && canonical !== latestCanonical) shrinkSteps += 1;
    latest = found;
    latestCanonical = canonical;
    original ??= found;
    return false;
  };
  let shrinkStopped: { calls: number; why: string } | undefined;
  const shrinkBudgetLeft = (): boolean => {
    if (!original || shrinkStopped) return !shrinkStopped;
    const elapsed = Date.now() - Date.parse(original.exchange.sentAt);
    if (shrinkCalls >= SHRINK_BUDGET.calls)
      shrinkStopped = { calls: shrinkCalls, why: `the budget of ${SHRINK_BUDGET.calls} calls was used` };
    else if (elapsed > SHRINK_BUDGET.ms)
      shrinkStopped = { calls: shrinkCalls, why: `the budget of ${SHRINK_BUDGET.ms / 1000} s was used` };
    return !shrinkStopped;
  };

  const property = fc.asyncProperty(spec.arbitrary, async (c) => {
    const args = spec.argumentsOf(c);
    fc.pre(args !== undefined);
    // Once the target is gone nothing more can be learnt: the case that took it down stays the counterexample.
    // After a timeout the tool is a slow one (or hangs): the search stops rather than wait out every case.
    if (gone || slow || slowed) return true;
    const canonical = canonicalJson(args);
    const known = verdicts.get(canonical);
    if (known === null) return true;
    if (known !== undefined) return failed({ ...known, value: c }, canonical);
    if (!shrinkBudgetLeft()) return true;
    // One more answer at the mean so far would overrun the allowance.
    if (
      !original &&
      searchCalls >= minCases &&
      searchCalls > 0 &&
      searchMs + searchMs / searchCalls > allowanceMs &&
      settings.path === undefined
    ) {
      slowed = { cases: searchCalls, meanMs: Math.round(searchMs / searchCalls) };
      return true;
    }
    if (original) shrinkCalls += 1;
    calls += 1;
    hash.update(canonical).update('\n');
    let exchange: Exchange;
    try {
      exchange = await settings.call(args, canonical);
    } catch (error) {
      if (!(error instanceof TargetGoneError)) throw error;
      gone = error;
      // A target already lost during another call: that call, not this case, is the counterexample.
      if (!isCallOf(error.exchange, args)) {
        abandoned = error;
        return true;
      }
      return failed(
        { value: c, args, exchange: error.exchange, problem: `the target stopped answering: ${error.message}` },
        canonical,
      );
    }
    if (exchange.failure?.kind === 'timeout') {
      slow = { args, exchange };
      return true;
    }
    if (!original) {
      searchCalls += 1;
      searchMs += exchange.durationMs;
    }
    const problem = await spec.judge(exchange, c);
    if (problem === undefined) {
      verdicts.set(canonical, null);
      return true;
    }
    const found = { value: c, args, exchange, problem };
    verdicts.set(canonical, found);
    return failed(found, canonical);
  });

  const remaining = settings.deadline === undefined ? undefined : Math.max(1, settings.deadline - Date.now());
  const details = await fc.check(property, {
    seed: settings.seed,
    numRuns: settings.runs,
    ...(settings.path !== undefined ? { path: settings.path, endOnFailure: true } : {}),
    ...(remaining !== undefined ? { interruptAfterTimeLimit: remaining } : {}),
    maxSkipsPerRun: 20,
  });
  const result: SearchResult<Case> = {
    calls,
    cases: slowed && !original ? slowed.cases : details.numRuns,
    digest: hash.digest('hex').slice(0, 16),
    interrupted: details.interrupted,
    tooManySkips: details.failed && original === undefined && details.errorInstance === null,
    ...(abandoned ? { abandoned } : {}),
    ...(slow ? { slow } : {}),
    ...(slowed && !original ? { slowed } : {}),
  };
  if (details.failed && original && latest && details.counterexamplePath !== null) {
    result.failure = {
      original,
      shrunk: latest,
      path: details.counterexamplePath,
      shrinks: shrinkSteps,
      ...(gone ? { targetGone: gone } : {}),
      ...(shrinkStopped ? { shrinkStopped } : {}),
    };
  } else if (details.failed && details.errorInstance) {
    throw details.errorInstance;
  }
  return result;
}

export type { ReplayTarget };
