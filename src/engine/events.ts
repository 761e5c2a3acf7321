import type { CheckResult } from '../model/check.js';
import type { RunReport } from '../model/report.js';

/**
 * What an audit tells its subscribers (reporters, the console's progress line), in this order: the run starts, each
 * check starts and yields its results (already scrubbed of secrets and marked against the baseline), and the run ends
 * with the whole report (baseline summary, lock comparison, verdict and exit code set).
 */
export type AuditEvent =
  | { type: 'run-started'; checks: number }
  | { type: 'check-started'; id: string }
  | { type: 'result'; result: CheckResult }
  | { type: 'run-finished'; report: RunReport };

/** A subscriber: the engine waits for what it does with `run-finished` (reports are written there). */
export type AuditHandler = (event: AuditEvent) => void | Promise<void>;
