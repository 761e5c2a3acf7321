import type { Revision } from '../core/revision.js';

/** One known failure or warning listed in a --baseline file. */
export interface BaselineEntry {
  check: string;
  tool?: string;
  /** The revision it was found on: it matches findings on that revision only. Absent (older files): any revision. */
  revision?: Revision;
  /** What the run that wrote the baseline saw, for the people reviewing it. */
  status?: 'fail' | 'warn';
  message?: string;
}

/** What the --baseline file did to a run, as report.json records it. */
export interface BaselineSummary {
  file: string;
  /** Failures and warnings the baseline lists: reported, but they do not fail the run. */
  known: number;
  /** Failures and warnings it does not list. */
  new: number;
  /** Listed, and the check now passes: the entry can go. */
  stale: BaselineEntry[];
  /** Listed, but nothing in this run confirms or clears it (check skipped or not selected). */
  unconfirmed: BaselineEntry[];
}
