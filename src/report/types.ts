import type { CheckResult } from '../model/check.js';
import type { RevisionsReport, RunReport } from '../model/report.js';
import type { Revision } from '../core/revision.js';

export interface Reporter {
  name: string;
  /** Called when a check finishes (live progress). */
  onResult?(result: CheckResult): void;
  /** A check began running (console progress). */
  onStart?(checkId: string): void;
  /** --revisions: a revision's turn began; its run's results follow, or `onRevisionNotAudited`. */
  onRevision?(revision: Revision): void;
  /** --revisions: the target did not take the revision; `reason` says what it answered. */
  onRevisionNotAudited?(revision: Revision, status: 'not-supported' | 'not-tried', reason: string): void;
  /** --revisions: one revision's run ended (its report is written with the others by `finishRevisions`). */
  onRunFinished?(report: RunReport): void;
  /** Writes the final output of a single run; returns the path written, if any. */
  finish(report: RunReport, outputDir: string): Promise<string | undefined>;
  /** Writes the final output of a --revisions audit (every run and the matrix); returns the path written, if any. */
  finishRevisions(report: RevisionsReport, outputDir: string): Promise<string | undefined>;
}
