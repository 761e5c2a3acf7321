import {
  notAuditedLabel,
  type MatrixCell,
  type MatrixRow,
  type RevisionEntry,
  type RevisionsReport,
} from '../model/report.js';
import type { Revision } from '../core/revision.js';

/** What a cell shows in the column of a revision the target did not take (it was not audited). */
export const NOT_AUDITED = '—';

/** How every format explains the cells that are no status. */
export const MATRIX_LEGEND =
  `n/a: the check does not exist in that revision; ${NOT_AUDITED}: the revision was not ` +
  `audited (the target does not support it)`;

/** The text of a cell: a status, `n/a`, or {@link NOT_AUDITED}. */
export function cellText(row: MatrixRow, revision: Revision): MatrixCell | typeof NOT_AUDITED {
  return row.cells[revision] ?? NOT_AUDITED;
}

/** A row that decided something on some revision: an outcome other than skip (or n/a) in at least one cell. */
export function isDecided(row: MatrixRow): boolean {
  return Object.values(row.cells).some((cell) => cell !== 'skip' && cell !== 'n/a');
}

/** The revisions of the report, newest first, as its columns. */
export function columns(report: Pick<RevisionsReport, 'revisions'>): Revision[] {
  return report.revisions.map((entry) => entry.revision);
}

/** One line on a revision: how its run ended, or that the target does not support it and what it answered. */
export function revisionOutcome(entry: RevisionEntry): string {
  if (entry.status !== 'audited') return `${notAuditedLabel(entry.status)}: ${entry.reason}`;
  const { verdict, summary } = entry.run;
  return (
    `${verdict ?? 'aborted'} (${summary.pass} pass, ${summary.fail} fail, ${summary.warn} warn, ${summary.skip}` +
    ` skip, ${summary.error} error)`
  );
}
