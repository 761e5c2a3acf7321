import type { CheckResult } from '../model/check.js';
import type { RunReport } from '../model/report.js';

export interface Reporter {
  name: string;
  /** Called when a check finishes (live progress). */
  onResult?(result: CheckResult): void;
  /** A check began running (console progress). */
  onStart?(checkId: string): void;
  /** Writes the final output; returns the path written, if any. */
  finish(report: RunReport, outputDir: string): Promise<string | undefined>;
}
