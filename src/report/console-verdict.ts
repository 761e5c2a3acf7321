import { EXIT } from '../model/exit-codes.js';
import { hostsFailing } from '../model/hosts.js';
import { auditedRuns, notAuditedLabel, type RevisionsReport, type RunReport } from '../model/report.js';
import type { Paint, Palette } from './color.js';
import { formatDuration } from './duration.js';
import { terminalInline } from './text-safety.js';
import { tellingLine } from '../transport/stderr-excerpt.js';

/**
 * How a single audit ended, in the words of the fleet's outcomes where they fit: conformant, warnings, failing; an
 * audit that could not judge everything is incomplete, and one that could not run a single check is not audited.
 */
export type AuditOutcome = 'conformant' | 'warnings' | 'failing' | 'incomplete' | 'not audited';

/** The target could not be started or reached (or the client never got going): no check decided anything. */
export function couldNotAudit(report: Pick<RunReport, 'aborted' | 'checks'>): boolean {
  return report.aborted !== undefined && report.checks.every((check) => check.status === 'skip');
}

/** The exit code the run concluded with, or the one its counts give while it has none yet. */
function exitOf(report: RunReport): number {
  if (report.exitCode !== undefined) return report.exitCode;
  if (report.aborted || report.summary.error > 0) return EXIT.unavailable;
  return report.summary.fail > 0 ? EXIT.failures : EXIT.ok;
}

export function auditOutcome(report: RunReport): AuditOutcome {
  const code = exitOf(report);
  if (couldNotAudit(report)) return 'not audited';
  if (code === EXIT.unavailable) return 'incomplete';
  if (code === EXIT.failures) return 'failing';
  return report.checks.some((check) => check.status === 'warn' && !check.baselined) ? 'warnings' : 'conformant';
}

function outcomePaint(outcome: AuditOutcome, paint: Palette): Paint {
  if (outcome === 'conformant') return paint.green;
  if (outcome === 'warnings') return paint.yellow;
  if (outcome === 'failing') return paint.red;
  return paint.magenta;
}

const count = (n: number, word: string) => `${n === 0 ? 'no' : n} ${word}${n === 1 ? '' : 's'}`;

/** `2 fails (+1 known)`: the findings that count, and those the baseline lists. */
function findings(report: RunReport, status: 'fail' | 'warn', word: string): string {
  const all = report.checks.filter((check) => check.status === status);
  const known = all.filter((check) => check.baselined).length;
  return `${count(all.length - known, word)}${known > 0 ? ` (+${known} known)` : ''}`;
}

/** What the counts alone do not say about the exit code. */
function reasons(report: RunReport, outcome: AuditOutcome): string[] {
  const notes: string[] = [];
  const counted = report.checks.filter((check) => !check.baselined);
  if (outcome === 'failing' && !counted.some((check) => check.status === 'fail')) {
    if (report.failOn === 'should' && counted.some((check) => check.status === 'warn'))
      notes.push('warnings fail the run under --fail-on should');
    if (report.lock?.status === 'changed') notes.push('the tool set changed since the lock');
    const blockedOn = hostsFailing(report.hosts);
    if (blockedOn.length > 0) notes.push(`a tool is blocked on ${blockedOn.join(', ')} (--fail-on-host)`);
    if ((report.baseline?.stale.length ?? 0) > 0 && notes.length === 0)
      notes.push('stale baseline entries (--fail-on-stale)');
  }
  if (report.aborted && outcome === 'incomplete') notes.push('the audit stopped');
  if (report.cutShort && !report.aborted)
    notes.push(`cut short by --max-duration (${report.cutShort.checksSkipped} check(s) skipped)`);
  return notes;
}

/**
 * The last line of every single audit, as a fleet ends with its own: the outcome, what it rests on, the time and the
 * exit code. `Verdict: failing: 2 fails, 3 warnings in 4.2 s (exit 1)`.
 */
export function verdictLine(report: RunReport, paint: Palette): string {
  const outcome = auditOutcome(report);
  let detail: string;
  if (outcome === 'not audited') {
    detail = `none of ${report.checks.length} check(s) could run`;
  } else {
    const parts = [findings(report, 'fail', 'fail'), findings(report, 'warn', 'warning')];
    if (report.summary.error > 0) parts.push(count(report.summary.error, 'error'));
    detail = [parts.join(', '), ...reasons(report, outcome)].join('; ');
  }
  return (
    `${paint.bold('Verdict:')} ${outcomePaint(outcome, paint)(outcome)}: ${detail} in ` +
    `${formatDuration(report.durationMs)} (exit ${exitOf(report)})`
  );
}

/**
 * Why a target could not be audited, first: the reason, the target, the line of its stderr that says what went wrong
 * (report.json keeps the excerpt), and the checks not run counted in one line. No tables: they would only count skips.
 */
export function notAuditedReason(report: RunReport, paint: Palette, verbose: boolean): string[] {
  const aborted = report.aborted!;
  const who = report.client ? 'client' : 'target';
  const stderr = aborted.targetStderr ?? [];
  // The stderr excerpt follows on lines of its own: the reason's inline copy of it is left out.
  const reason = stderr.length > 0 ? aborted.reason.replace(/ \(stderr: [^]*\)$/, '') : aborted.reason;
  const lines = [paint.red(paint.bold(terminalInline(reason.charAt(0).toUpperCase() + reason.slice(1), 1000)))];
  const target = report.target.url ?? report.target.command ?? report.target.file;
  if (target !== undefined) lines.push(`  ${who}: ${terminalInline(target, 300)}`);
  const telling = tellingLine(stderr);
  if (telling !== undefined) {
    const more = stderr.filter((line) => line !== '…').length - 1;
    lines.push(
      `  ${who} stderr: ${terminalInline(telling)}` +
        `${more > 0 ? paint.dim(` (and ${more} more line(s) in report.json, aborted.targetStderr)`) : ''}`,
    );
  }
  lines.push(paint.dim(`  ${report.checks.length} check(s) not run${verbose ? '' : ' (--verbose lists them)'}`));
  return lines;
}

/** The whole end of a single audit whose target could not be audited: the reason, the reports written, the verdict. */
export function notAuditedLines(
  report: RunReport,
  paint: Palette,
  writtenPaths: readonly string[],
  verbose: boolean,
): string[] {
  const reports =
    writtenPaths.length > 0 ? [`Reports: ${writtenPaths.map((path) => terminalInline(path)).join(', ')}`] : [];
  return ['', ...notAuditedReason(report, paint, verbose), ...reports, '', verdictLine(report, paint)];
}

/** A --revisions audit's last line: the worst outcome, each revision's, the time and the exit code. */
export function revisionsVerdictLine(report: RevisionsReport, paint: Palette): string {
  const runs = new Map(auditedRuns(report).map(({ revision, run }) => [revision, run]));
  const each = report.revisions.map((entry) => {
    const run = runs.get(entry.revision);
    return (
      `${entry.revision} ` +
      `${run ? auditOutcome(run) : notAuditedLabel(entry.status as 'not-supported' | 'not-tried')}`
    );
  });
  const outcome: AuditOutcome = [...runs.values()].every(couldNotAudit)
    ? 'not audited'
    : report.exitCode === EXIT.unavailable
      ? 'incomplete'
      : report.exitCode === EXIT.failures
        ? 'failing'
        : [...runs.values()].some((run) => auditOutcome(run) === 'warnings')
          ? 'warnings'
          : 'conformant';
  return (
    `${paint.bold('Verdict:')} ${outcomePaint(outcome, paint)(outcome)}: ${each.join(', ')} in ` +
    `${formatDuration(report.durationMs)} (exit ${report.exitCode})`
  );
}

/**
 * A --revisions audit in which no revision could be audited at all (the target could not be started or reached; each
 * revision's reason was said as it ended): one line for the revisions, the reports written and the verdict.
 */
export function revisionsNotAuditedLines(
  report: RevisionsReport,
  paint: Palette,
  writtenPaths: readonly string[],
): string[] | undefined {
  const runs = auditedRuns(report);
  if (runs.length === 0 || !runs.every(({ run }) => couldNotAudit(run))) return undefined;
  const reports =
    writtenPaths.length > 0 ? [`Reports: ${writtenPaths.map((path) => terminalInline(path)).join(', ')}`] : [];
  return [
    '',
    `Revisions: ${report.revisions.length} asked, none audited: the target could not be started or reached ` +
      `(the reason is above)`,
    ...reports,
    '',
    revisionsVerdictLine(report, paint),
  ];
}
