import type { CheckResult } from '../model/check.js';
import { boundEvidence, DEFAULT_EVIDENCE_LIMITS, truncateString, type EvidenceLimits } from './evidence-bounds.js';
import { fileReporter } from './file-reporter.js';
import type { Reporter } from './types.js';
import type { RevisionsReport, RunReport } from '../model/report.js';

export const JSON_REPORT_FILE = 'report.json';

/** The report as report.json stores it: evidence and long target-quoting strings bounded. */
export function boundReport(report: RunReport, limits: EvidenceLimits = DEFAULT_EVIDENCE_LIMITS): RunReport {
  return { ...report, checks: report.checks.map((check) => boundCheck(check, limits)) };
}

function boundCheck(check: CheckResult, limits: EvidenceLimits): CheckResult {
  const cut = (text: string): string => truncateString(text, limits.maxStringLength);
  return {
    ...check,
    message: cut(check.message),
    ...(check.expected !== undefined && { expected: cut(check.expected) }),
    ...(check.tool !== undefined && { tool: cut(check.tool) }),
    evidence: boundEvidence(check.evidence, limits),
  };
}

export function renderJsonReport(report: RunReport): string {
  return `${JSON.stringify(boundReport(report), null, 2)}\n`;
}

/** A --revisions audit's report.json: each run bounded as a single run's is. */
export function renderJsonRevisions(report: RevisionsReport): string {
  const revisions = report.revisions.map((entry) =>
    entry.status === 'audited' ? { ...entry, run: boundReport(entry.run) } : entry,
  );
  return `${JSON.stringify({ ...report, revisions }, null, 2)}\n`;
}

export function createJsonReporter(): Reporter {
  return fileReporter('json', JSON_REPORT_FILE, renderJsonReport, renderJsonRevisions);
}
