import type { CheckResult } from '../model/check.js';
import { colorEnabled, palette, type Palette } from './color.js';
import { areaHeading, checkLines, recapLines } from './console-lines.js';
import { createProgress, type ProgressOptions } from './console-progress.js';
import { matrixLines, revisionsSummaryLines } from './console-matrix.js';
import { runSummaryLines, summaryLines } from './console-summary.js';
import {
  couldNotAudit,
  notAuditedLines,
  notAuditedReason,
  revisionsNotAuditedLines,
  revisionsVerdictLine,
  verdictLine,
} from './console-verdict.js';
import { hostsConsoleLines } from './hosts-lines.js';
import { terminalInline } from './text-safety.js';
import type { Reporter } from './types.js';
import { notAuditedLabel, type RevisionsReport, type RunReport } from '../model/report.js';
import type { Revision } from '../core/revision.js';

export interface ConsoleReporterOptions {
  stream?: NodeJS.WritableStream;
  /** Defaults to {@link colorEnabled} for the stream. */
  color?: boolean;
  /** Also prints pass messages, every skip on its own line, and the JSON of each evidence item. */
  verbose?: boolean;
  /** Failures only: no line per check, just the summary and the list of fails, warnings and errors. */
  quiet?: boolean;
  /** Paths the other reporters wrote, read when the summary is printed. */
  writtenPaths?: () => readonly string[];
  /** Progress on long runs: a status line on a terminal, a heartbeat line without one. Off when absent. */
  progress?: Omit<ProgressOptions, 'stream' | 'paint'>;
}

/** Ids shown per folded skip reason. */
const FOLDED_IDS_SHOWN = 3;

/** Skips that say the same thing are one line: "18 checks: needs the Streamable HTTP transport (--url)". */
function skipReasonLines(skips: readonly CheckResult[], paint: Palette): string[] {
  const byReason = new Map<string, CheckResult[]>();
  for (const skip of skips) {
    const reason = skip.message.split(/\r?\n/)[0]!.trim();
    byReason.set(reason, [...(byReason.get(reason) ?? []), skip]);
  }
  const lines = [paint.bold(`Skipped: ${skips.length} check outcome(s)`) + paint.dim(' (--verbose lists each)')];
  for (const [reason, group] of [...byReason.entries()].sort((a, b) => b[1].length - a[1].length)) {
    const ids = [...new Set(group.map((r) => r.id))];
    const shown =
      ids.slice(0, FOLDED_IDS_SHOWN).join(', ') +
      (ids.length > FOLDED_IDS_SHOWN ? `, +${ids.length - FOLDED_IDS_SHOWN} more` : '');
    lines.push(
      `  ${String(group.length).padStart(3)} × ${terminalInline(reason, 200)} ` +
        `${paint.dim(`(${terminalInline(shown, 200)})`)}`,
    );
  }
  return lines;
}

/** Every fail, warning and error again, one line each, where a CI log's reader looks last. */
function recap(report: RunReport, paint: Palette): string[] {
  const findings = report.checks.filter(
    (c) => (c.status === 'fail' || c.status === 'warn' || c.status === 'error') && !c.baselined,
  );
  if (findings.length === 0) return [];
  const order = { error: 0, fail: 1, warn: 2 } as const;
  const sorted = [...findings].sort(
    (a, b) => order[a.status as keyof typeof order] - order[b.status as keyof typeof order],
  );
  return ['', paint.bold(`Findings (${findings.length}):`), ...sorted.flatMap((r) => recapLines(r, paint))];
}

/**
 * Live lines per finished check (skips folded by reason at the end, unless verbose), then a summary and the findings
 * again. Every target-quoting text is made terminal-safe.
 */
export function createConsoleReporter(options: ConsoleReporterOptions = {}): Reporter {
  const stream = options.stream ?? process.stdout;
  const paint = palette(options.color ?? colorEnabled(stream));
  const verbose = options.verbose ?? false;
  const quiet = options.quiet ?? false;
  let lastArea: string | undefined;
  let printedAny = false;
  let seenAny = false;

  const progress = options.progress ? createProgress({ ...options.progress, stream, paint }) : undefined;
  const write = (lines: readonly string[]): void => {
    progress?.beforeWrite();
    stream.write(lines.map((line) => `${line}\n`).join(''));
    progress?.afterWrite();
  };

  const print = (result: CheckResult): void => {
    seenAny = true;
    progress?.finished(result.id);
    if (quiet || (result.status === 'skip' && !verbose)) return;
    const lines: string[] = [];
    if (result.area !== lastArea) {
      lines.push(...(printedAny ? [''] : []), areaHeading(result.area, paint));
      lastArea = result.area;
    }
    lines.push(...checkLines(result, paint, verbose));
    printedAny = true;
    write(lines);
  };

  return {
    name: 'console',
    onResult: print,
    onStart: (checkId) => progress?.started(checkId),
    // --revisions: each revision's run under a heading of its own, its summary after it; the matrix comes last.
    onRevision(revision: Revision) {
      write(['', paint.bold(`Revision ${revision}`)]);
      lastArea = undefined;
      printedAny = false;
    },
    onRevisionNotAudited(_revision: Revision, status: 'not-supported' | 'not-tried', reason: string) {
      write([paint.dim(`  ${notAuditedLabel(status)}, not audited: ${terminalInline(reason, 400)}`)]);
    },
    onRunFinished(report: RunReport) {
      // A target that could not be started or reached on this revision: its reason alone.
      if (couldNotAudit(report)) write(notAuditedReason(report, paint, verbose));
      else write([...(printedAny ? [''] : []), ...runSummaryLines(report, paint)]);
    },
    async finishRevisions(report: RevisionsReport) {
      progress?.stop();
      const paths = options.writtenPaths?.() ?? [];
      write(
        revisionsNotAuditedLines(report, paint, paths) ?? [
          ...matrixLines(report, paint, verbose),
          ...revisionsSummaryLines(report, paint, paths),
          '',
          revisionsVerdictLine(report, paint),
        ],
      );
      return undefined;
    },
    async finish(report: RunReport) {
      progress?.stop();
      // A report that was not produced live (e.g. replayed from a file) still gets its lines.
      if (!seenAny) report.checks.forEach(print);
      // A target that could not be started or reached: the reason first, without tables that would only count skips.
      if (couldNotAudit(report)) {
        write(notAuditedLines(report, paint, options.writtenPaths?.() ?? [], verbose));
        return undefined;
      }
      const skips = report.checks.filter((c) => c.status === 'skip');
      const folded = !verbose && skips.length > 0 ? ['', ...skipReasonLines(skips, paint)] : [];
      write([
        ...(quiet ? [] : folded),
        ...summaryLines(report, paint, options.writtenPaths?.() ?? []),
        ...recap(report, paint),
        ...hostsConsoleLines(report.hosts, paint, quiet),
        '',
        verdictLine(report, paint),
      ]);
      return undefined;
    },
  };
}
