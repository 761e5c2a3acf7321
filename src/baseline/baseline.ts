import { readFile, writeFile } from 'node:fs/promises';
import type { RunReport } from '../model/report.js';
import type { CheckResult } from '../model/check.js';
import type { BaselineEntry, BaselineSummary } from '../model/baseline.js';
import { isRevision, type Revision } from '../core/revision.js';

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
const entryKey = (e: BaselineEntry) => `${keyOf(e.check, e.tool)}\u0000${e.revision ?? ''}`;
const isFinding = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';
/**
 * An entry speaks of a run on `revision` when it names that revision, or none (a file written before entries had one).
 */
const concerns = (entry: BaselineEntry, revision: Revision | null) =>
  entry.revision === undefined || entry.revision === revision;

export async function readBaseline(path: string): Promise<BaselineFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new BaselineError(`cannot read baseline ${path}: ${(error as Error).message}`);
  }
  const file = parsed as Partial<BaselineFile>;
  if (file?.format !== BASELINE_FORMAT || file.version !== 1 || !Array.isArray(file.entries)) {
    throw new BaselineError(
      `${path} is not a ${BASELINE_FORMAT} version 1 file (write one with: mcp-tools-conformance baseline --write)`,
    );
  }
  for (const entry of file.entries) {
    if (typeof entry?.check !== 'string' || (entry.tool !== undefined && typeof entry.tool !== 'string')) {
      throw new BaselineError(`${path}: every entry needs a string "check" (and, optionally, a string "tool")`);
    }
    if (entry.revision !== undefined && !isRevision(entry.revision)) {
      throw new BaselineError(
        `${path}: an entry's "revision" must be one of the revisions this tool knows, got ` +
          `${JSON.stringify(entry.revision)}`,
      );
    }
  }
  return file as BaselineFile;
}

/**
 * The baseline of one run, or of the runs of a --revisions audit: every fail and warn, by check ID, tool and the
 * revision it was found on, sorted so that the file diffs well.
 */
export function baselineFrom(...reports: RunReport[]): BaselineFile {
  const seen = new Set<string>();
  const entries: BaselineEntry[] = [];
  for (const report of reports) {
    const revision = report.wire.protocolVersion;
    for (const r of report.checks.filter(isFinding)) {
      const entry: BaselineEntry = {
        check: r.id,
        ...(r.tool !== undefined ? { tool: r.tool } : {}),
        ...(revision !== null ? { revision } : {}),
        status: r.status as 'fail' | 'warn',
        message: r.message.slice(0, 300),
      };
      if (seen.has(entryKey(entry))) continue;
      seen.add(entryKey(entry));
      entries.push(entry);
    }
  }
  entries.sort((a, b) => entryKey(a).localeCompare(entryKey(b)));
  return { format: BASELINE_FORMAT, version: 1, createdAt: reports[0]?.startedAt ?? new Date().toISOString(), entries };
}

export async function writeBaseline(path: string, ...reports: RunReport[]): Promise<BaselineFile> {
  const file = baselineFrom(...reports);
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, 'utf8');
  return file;
}

/** One result of a run on `revision` marked as a known finding when the baseline lists it (for live reporting). */
export function markKnown(result: CheckResult, baseline: BaselineFile, revision: Revision | null): CheckResult {
  if (!isFinding(result)) return result;
  const listed = baseline.entries.some((e) => e.check === result.id && e.tool === result.tool && concerns(e, revision));
  return listed ? { ...result, baselined: true } : result;
}

/** Marks known findings (`baselined: true`) and says what is new, stale and unconfirmed. */
export function applyBaseline(report: RunReport, baseline: BaselineFile, file: string): RunReport {
  const revision = report.wire.protocolVersion;
  const checks = report.checks.map((r) => markKnown(r, baseline, revision));
  return { ...report, checks, baseline: summarizeBaseline(checks, baseline, file, revision) };
}

/**
 * What is known, new, stale and unconfirmed, for the results of a run on `revision` already marked by markKnown.
 * Entries of another revision say nothing about this run: they are neither stale nor unconfirmed here.
 */
export function summarizeBaseline(
  checks: readonly CheckResult[],
  baseline: BaselineFile,
  file: string,
  revision: Revision | null,
): BaselineSummary {
  const listed = new Map(baseline.entries.filter((e) => concerns(e, revision)).map((e) => [entryKey(e), e]));
  const outcomes = new Map<string, CheckResult[]>();
  for (const r of checks) outcomes.set(keyOf(r.id, r.tool), [...(outcomes.get(keyOf(r.id, r.tool)) ?? []), r]);
  const stale: BaselineEntry[] = [];
  const unconfirmed: BaselineEntry[] = [];
  for (const entry of listed.values()) {
    const seen = outcomes.get(keyOf(entry.check, entry.tool)) ?? [];
    if (seen.some(isFinding)) continue;
    if (seen.some((r) => r.status === 'pass')) stale.push(entry);
    else unconfirmed.push(entry);
  }
  const known = checks.filter((r) => r.baselined).length;
  const findings = checks.filter(isFinding).length;
  return { file, known, new: findings - known, stale, unconfirmed };
}
