import type { CheckResult } from '../model/check.js';
import type { RevisionsReport, RunReport } from '../model/report.js';
import type { Revision } from '../core/revision.js';

/**
 * What an audit tells its subscribers (reporters, the console's progress line), in this order: the run starts, each
 * check starts and yields its results (already scrubbed of secrets and marked against the baseline), and the run ends
 * with the whole report (baseline summary, lock comparison, verdict and exit code set).
 *
 * A --revisions audit is a sequence of such runs inside `revisions-started` … `revisions-finished`: each revision
 * begins with `revision-started`, then either its run's events, unchanged, or `revision-not-audited`; the matrix
 * report comes last. A subscriber that sees no `revisions-started` is in a single run.
 */
export type AuditEvent =
  | { type: 'run-started'; checks: number }
  | { type: 'check-started'; id: string }
  | { type: 'result'; result: CheckResult }
  | { type: 'run-finished'; report: RunReport }
  | { type: 'revisions-started'; revisions: readonly Revision[] }
  | { type: 'revision-started'; revision: Revision }
  | { type: 'revision-not-audited'; revision: Revision; status: 'not-supported' | 'not-tried'; reason: string }
  | { type: 'revisions-finished'; report: RevisionsReport };

/**
 * A subscriber: the engine waits for what it does with `run-finished` and `revisions-finished` (reports are written
 * there).
 */
export type AuditHandler = (event: AuditEvent) => void | Promise<void>;
