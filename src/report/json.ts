import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult } from '../runner/types.js';
import { boundEvidence, DEFAULT_EVIDENCE_LIMITS, truncateString, type EvidenceLimits } from './bound.js';
import type { Reporter, RunReport } from './types.js';

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

export function createJsonReporter(): Reporter {
  return {
    name: 'json',
    async finish(report, outputDir) {
      await mkdir(outputDir, { recursive: true });
      const path = join(outputDir, JSON_REPORT_FILE);
      await writeFile(path, renderJsonReport(report), 'utf8');
      return path;
    },
  };
}
