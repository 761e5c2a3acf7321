import { auditedRuns, type RevisionsReport } from '../model/report.js';
import type { Palette } from './color.js';
import { recapLines } from './console-lines.js';
import { paintStatus } from './console-summary.js';
import { formatDuration } from './duration.js';
import { cellText, columns, isDecided, MATRIX_LEGEND, revisionOutcome } from './revision-matrix.js';
import { STATUSES } from './statuses.js';
import { terminalInline } from './text-safety.js';

/** A revision is ten characters wide; a cell's text (a status, n/a or —) fits in it. */
const CELL_WIDTH = 10;
const MIN_ID_WIDTH = 5;

function paintCell(text: string, paint: Palette): string {
  const padded = text.padEnd(CELL_WIDTH);
  return (STATUSES as readonly string[]).includes(text)
    ? paintStatus(text as (typeof STATUSES)[number], padded, paint)
    : paint.dim(padded);
}

/**
 * The matrix: a row per check, a column per revision. Rows that decided nothing on any revision (skip or n/a in every
 * cell) are counted in one line unless `all` (--verbose).
 */
export function matrixLines(report: RevisionsReport, paint: Palette, all: boolean): string[] {
  const revisions = columns(report);
  const rows = all ? report.matrix : report.matrix.filter(isDecided);
  const idWidth = Math.max(MIN_ID_WIDTH, ...rows.map((row) => row.id.length));
  const lines = [
    '',
    paint.bold('Revision matrix') + paint.dim(` (a row per check, a column per revision; ${MATRIX_LEGEND})`),
    `  ${'check'.padEnd(idWidth)}${revisions.map((revision) => `  ${revision.padEnd(CELL_WIDTH)}`).join('')}`.trimEnd(),
  ];
  for (const row of rows) {
    const cells = revisions.map((revision) => `  ${paintCell(cellText(row, revision), paint)}`).join('');
    lines.push(`  ${terminalInline(row.id).padEnd(idWidth)}${cells}`.trimEnd());
  }
  const folded = report.matrix.length - rows.length;
  if (folded > 0)
    lines.push(
      paint.dim(`  … and ${folded} more check(s) decided on no revision (skip or n/a on each; --verbose lists them)`),
    );
  return lines;
}

/** After the matrix: each revision's outcome, every finding of every run (labelled with its revision), the totals. */
export function revisionsSummaryLines(
  report: RevisionsReport,
  paint: Palette,
  writtenPaths: readonly string[],
): string[] {
  const runs = auditedRuns(report);
  const lines = ['', paint.bold(`Revisions: ${report.revisions.length} asked, ${runs.length} audited`)];
  for (const entry of report.revisions) {
    const outcome = terminalInline(revisionOutcome(entry), 300);
    const painted =
      entry.status !== 'audited'
        ? paint.dim(outcome)
        : entry.run.verdict === 'pass'
          ? paint.green(outcome)
          : entry.run.verdict === 'fail'
            ? paint.red(outcome)
            : paint.magenta(outcome);
    lines.push(`  ${entry.revision}  ${painted}`);
  }
  const order = { error: 0, fail: 1, warn: 2 } as const;
  const findings = runs.flatMap(({ revision, run }) =>
    run.checks
      .filter((c) => (c.status === 'fail' || c.status === 'warn' || c.status === 'error') && !c.baselined)
      .sort((a, b) => order[a.status as keyof typeof order] - order[b.status as keyof typeof order])
      .map((check) => ({ revision, check })),
  );
  if (findings.length > 0)
    lines.push(
      '',
      paint.bold(`Findings (${findings.length}):`),
      ...findings.flatMap(({ revision, check }) => recapLines(check, paint, revision)),
    );
  const requests = runs.reduce((sum, { run }) => sum + run.stats.requests, 0);
  lines.push('', `Duration: ${formatDuration(report.durationMs)}, ${requests} request(s) over ${runs.length} audit(s)`);
  if (runs.length === 0)
    lines.push(paint.red(`No revision audited: the target supports none of ${columns(report).join(', ')}.`));
  if (writtenPaths.length > 0) lines.push(`Reports: ${writtenPaths.map((path) => terminalInline(path)).join(', ')}`);
  return lines;
}
