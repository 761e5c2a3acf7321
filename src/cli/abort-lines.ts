import type { RunReport } from '../model/report.js';
import { startHint } from '../model/start-hint.js';

/**
 * The lines for stderr when the audit stopped because of the target: one line that says why, a hint when there is one,
 * and the target's own stderr excerpt. `report` is the scrubbed report: nothing secret is printed.
 */
export function abortLines(report: Pick<RunReport, 'aborted'>, ranAtAll: boolean): string[] {
  const aborted = report.aborted;
  if (!aborted) return [];
  const hint = startHint(aborted.reason);
  // The stderr excerpt follows on lines of its own: the reason's inline copy of it is left out.
  const reason = aborted.targetStderr ? aborted.reason.replace(/ \(stderr: [^]*\)$/, '') : aborted.reason;
  return [
    `mcp-tools-conformance: ${ranAtAll ? `the audit stopped: ${reason}` : reason}`,
    ...(hint ? [`  hint: ${hint}`] : []),
    ...(aborted.targetStderr ?? []).map((line) => `  target stderr: ${line}`),
  ];
}
