import { readFile, writeFile } from 'node:fs/promises';
import type { RunReport } from '../model/report.js';
import type { CheckResult } from '../model/check.js';
import type { BaselineEntry, BaselineSummary } from '../model/baseline.js';

export const BASELINE_FORMAT = 'mcp-tools-conformance/baseline';
export const DEFAULT_BASELINE_FILE = 'mcp-conformance-baseline.json';

export interface BaselineFile {
  format: typeof BASELINE_FORMAT;
  version: 1;
  createdAt: string;
  entries: BaselineEntry[];
}

export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineError';
  }
}

const keyOf = (check: string, tool: string | undefined) => `${check}\u0000${tool ?? ''}`;
const isFinding = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';

export async function readBaseline(path: string): Promise<BaselineFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new BaselineError(`cannot read baseline ${path}: ${(error as Error).message}`);
  }
  const file = parsed as Partial<BaselineFile>;
  if (file?.format !== BASELINE_FORMAT || file.version !== 1 || !Array.isArray(file.entries)) {
    throw new BaselineError(`${path} is not a ${BASELINE_FORMAT} version 1 file (write one with: mcp-tools-conformance baseline --write)`);
  }
  for (const entry of file.entries) {
    if (typeof entry?.check !== 'string' || (entry.tool !== undefined && typeof entry.tool !== 'string')) {
      throw new BaselineError(`${path}: every entry needs a string "check" (and, optionally, a string "tool")`);
    }
  }
  return file as BaselineFile;
}

/** The baseline of a run: every fail and warn, by check ID and tool, sorted so that the file diffs well. */
export function baselineFrom(report: RunReport): BaselineFile {
  const seen = new Set<string>();
  const entries: BaselineEntry[] = [];
  for (const r of report.checks.filter(isFinding)) {
    const key = keyOf(r.id, r.tool);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({ check: r.id, ...(r.tool !== undefined ? { tool: r.tool } : {}), status: r.status as 'fail' | 'warn', message: r.message.slice(0, 300) });
  }
  entries.sort((a, b) => keyOf(a.check, a.tool).localeCompare(keyOf(b.check, b.tool)));
  return { format: BASELINE_FORMAT, version: 1, createdAt: report.startedAt, entries };
}

export async function writeBaseline(path: string, report: RunReport): Promise<BaselineFile> {
  const file = baselineFrom(report);
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, 'utf8');
  return file;
}

/** One result marked as a known finding when the baseline lists it (for live reporting). */
export function markKnown(result: CheckResult, baseline: BaselineFile): CheckResult {
  if (!isFinding(result)) return result;
  return baseline.entries.some((e) => e.check === result.id && e.tool === result.tool) ? { ...result, baselined: true } : result;
}

/** Marks known findings (`baselined: true`) and says what is new, stale and unconfirmed. */
export function applyBaseline(report: RunReport, baseline: BaselineFile, file: string): RunReport {
  const checks = report.checks.map((r) => markKnown(r, baseline));
  return { ...report, checks, baseline: summarizeBaseline(checks, baseline, file) };
}

/** What is known, new, stale and unconfirmed, for results already marked by markKnown. */
export function summarizeBaseline(checks: readonly CheckResult[], baseline: BaselineFile, file: string): BaselineSummary {
  const listed = new Map(baseline.entries.map((e) => [keyOf(e.check, e.tool), e]));
  const outcomes = new Map<string, CheckResult[]>();
  for (const r of checks) outcomes.set(keyOf(r.id, r.tool), [...(outcomes.get(keyOf(r.id, r.tool)) ?? []), r]);
  const stale: BaselineEntry[] = [];
  const unconfirmed: BaselineEntry[] = [];
  for (const [key, entry] of listed) {
    const seen = outcomes.get(key) ?? [];
    if (seen.some(isFinding)) continue;
    if (seen.some((r) => r.status === 'pass')) stale.push(entry);
    else unconfirmed.push(entry);
  }
  const known = checks.filter((r) => r.baselined).length;
  const findings = checks.filter(isFinding).length;
  return { file, known, new: findings - known, stale, unconfirmed };
}
