import type { CheckResult, Status } from '../model/check.js';
import { depthLine } from './depth-line.js';
import { callsChanged, effectsRows, sandboxLine } from './effects-table.js';
import { formatDuration } from './duration.js';
import { KEYWORD_LABELS, STATUSES, countByStatus, labelOf } from './statuses.js';
import { escapeForTerminal } from './text-safety.js';
import { MAX_CELL_CHARS, markdownCode, markdownInline } from './markdown-text.js';
import { fileReporter } from './file-reporter.js';
import type { Reporter } from './types.js';
import { hostsMarkdown } from './hosts-markdown.js';
import { auditedRuns, notAuditedLabel, type RevisionsReport, type RunReport } from '../model/report.js';
import { outcomeAnchors, revisionAnchorPrefix } from './html/checks.js';
import { cellText, columns, isDecided, MATRIX_LEGEND, NOT_AUDITED } from './revision-matrix.js';

export const MARKDOWN_REPORT_FILE = 'summary.md';
const MAX_ROWS = 50;

export interface MarkdownOptions {
  /** The HTML report's file name when it is written in the same run: requirement IDs then link into it. */
  htmlReport?: string;
  /**
   * The JSON report's path, relative to the Markdown file, when it is written: a cut finding points there for its full
   * text.
   */
  jsonReport?: string;
}

export { markdownCode, markdownInline } from './markdown-text.js';

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function headline(report: RunReport): string {
  const { fail, warn, error } = report.summary;
  if (report.aborted || error > 0) return '⛔ audit incomplete';
  const known = report.checks.filter((c) => c.baselined && c.status === 'fail').length;
  const failing = fail - known;
  const lockChanged = report.lock?.status === 'changed' ? ', tool set changed since the lock' : '';
  const knownText = known > 0 ? ` (${known} known)` : '';
  if (failing > 0)
    return `❌ ${plural(failing, report.baseline ? 'new failure' : 'failure')}${knownText}${lockChanged}`;
  if (lockChanged) return `❌ no failures${knownText}${lockChanged}`;
  if (warn > 0) return `⚠️ no failures${knownText}, ${plural(warn, 'warning')}`;
  return `✅ no failures${knownText}`;
}

function targetText(report: Pick<RunReport, 'target' | 'client'>): string {
  const t = report.target;
  if (report.client)
    return `client \`${t.command ?? ''}\` over ${t.transport === 'http' ? 'Streamable HTTP' : 'stdio'}`;
  if (t.transport === 'http+sse') return `\`${t.url ?? ''}\` over HTTP+SSE (2024-11-05)`;
  return t.transport === 'http'
    ? `\`${t.url ?? ''}\``
    : t.transport === 'snapshot'
      ? `snapshot \`${t.file ?? ''}\``
      : `\`${t.command ?? ''}\``;
}

function countsTable(report: RunReport): string[] {
  const lines = [`| Keyword | ${STATUSES.join(' | ')} |`, `| --- | ${STATUSES.map(() => '---:').join(' | ')} |`];
  for (const label of KEYWORD_LABELS) {
    const counts = countByStatus(report.checks.filter((c) => labelOf(c) === label));
    lines.push(`| ${label} | ${STATUSES.map((s) => counts[s]).join(' | ')} |`);
  }
  lines.push(`| **all** | ${STATUSES.map((s) => `**${report.summary[s]}**`).join(' | ')} |`);
  return lines;
}

/** Where a finding cut here is whole: its outcome in the HTML report, else the JSON report, else how to get one. */
function fullText(options: MarkdownOptions, anchor?: string): string {
  if (options.htmlReport)
    return `[${anchor ? 'full text' : options.htmlReport}](${options.htmlReport}${anchor ? `#${anchor}` : ''})`;
  if (options.jsonReport) return `${anchor ? 'full text in ' : ''}${markdownCode(options.jsonReport)}`;
  return `${anchor ? 'full text: ' : ''}\`--reporter json\` writes report.json`;
}

function findingsTable(
  title: string,
  rows: { check: CheckResult; anchor: string }[],
  options: MarkdownOptions,
): string[] {
  if (rows.length === 0) return [];
  const lines = [`### ${title}`, '', '| Requirement | Keyword | Tool | Finding |', '| --- | --- | --- | --- |'];
  for (const { check, anchor } of rows.slice(0, MAX_ROWS)) {
    const id = options.htmlReport ? `[\`${check.id}\`](${options.htmlReport}#${anchor})` : `\`${check.id}\``;
    const known = check.baselined ? ' _(known: in the baseline)_' : '';
    const cut =
      Array.from(escapeForTerminal(check.message)).length > MAX_CELL_CHARS ? ` (${fullText(options, anchor)})` : '';
    lines.push(
      `| ${id} | [${labelOf(check)}](${check.specUrl}) | ` +
        `${check.tool !== undefined ? markdownInline(check.tool, 80) : ''} | ${markdownInline(check.message)}` +
        `${cut}${known} |`,
    );
  }
  if (rows.length > MAX_ROWS) lines.push(`| … | | | ${rows.length - MAX_ROWS} more: ${fullText(options)} |`);
  lines.push('');
  return lines;
}

function identityText(report: Pick<RunReport, 'client' | 'server'>): string {
  const identity = report.client ?? report.server;
  return identity?.name
    ? ` — ${report.client ? 'client ' : ''}${markdownInline(identity.name, 80)}` +
        `${identity.version ? ` ${markdownInline(identity.version, 40)}` : ''}`
    : '';
}

/** The findings of one run, a table per status; `prefix` names the run in a --revisions report. */
export function findingsTables(
  report: RunReport,
  options: MarkdownOptions,
  anchorPrefix = '',
  titlePrefix = '',
): string[] {
  const anchors = outcomeAnchors(report.checks, anchorPrefix);
  const rows = report.checks.map((check, index) => ({ check, anchor: anchors[index]! }));
  const byStatus = (status: Status) => rows.filter((r) => r.check.status === status);
  return [
    ...findingsTable(`${titlePrefix}Failures`, byStatus('fail'), options),
    ...findingsTable(`${titlePrefix}Warnings`, byStatus('warn'), options),
    ...findingsTable(`${titlePrefix}Errors (the audit could not decide)`, byStatus('error'), options),
  ];
}

/** "What each tool changed" in the sandbox, as a table. */
function effectsTable(report: RunReport): string[] {
  const rows = effectsRows(report);
  if (rows.length === 0) return [];
  return [
    '| Tool | Calls | What it changed |',
    '| --- | --- | --- |',
    ...rows.map(
      (row) => `| ${markdownInline(row.tool, 80)} | ${callsChanged(row)} | ${markdownInline(row.changes, 400)} |`,
    ),
    '',
  ];
}

export function renderMarkdown(report: RunReport, options: MarkdownOptions = {}): string {
  const lines = [
    `## MCP tools conformance${identityText(report)}: ${headline(report)}`,
    '',
    `Target ${targetText(report)} · wire ${report.wire.protocolVersion ?? 'not negotiated'} · ` +
      `${formatDuration(report.durationMs)} · ${report.stats.requests} requests · ${report.checks.length} check ` +
      `outcomes`,
    '',
  ];
  if (report.depth) lines.push(`Depth: ${markdownInline(depthLine(report.depth), 500)}`, '');
  if (report.sandbox)
    lines.push(`Sandbox: ${markdownInline(sandboxLine(report.sandbox), 500)}`, '', ...effectsTable(report));
  if (report.aborted) lines.push(`> **The audit did not complete:** ${markdownInline(report.aborted.reason, 500)}`, '');
  lines.push(...countsTable(report), '');
  lines.push(...findingsTables(report, options));
  lines.push(...hostsMarkdown(report.hosts));
  if (report.baseline) {
    const b = report.baseline;
    lines.push(
      `Baseline ${markdownCode(b.file)}: ${b.known} known, **${b.new} new**, ${b.stale.length} stale, ` +
        `${b.unconfirmed.length} unconfirmed.`,
    );
    if (b.stale.length > 0) {
      lines.push(
        `Stale (now passing, remove from the baseline): ` +
          `${b.stale
            .map(
              (e) => `${markdownCode(e.check)}` + `${e.tool !== undefined ? ` [${markdownInline(e.tool, 80)}]` : ''}`,
            )
            .join(', ')}`,
      );
    }
    lines.push('');
  }
  if (report.lock) {
    const l = report.lock;
    const changes = [
      ...l.added.map((n) => `added ${markdownCode(n, 80)}`),
      ...l.removed.map((n) => `removed ${markdownCode(n, 80)}`),
      ...l.changed.map((c) => `changed ${markdownCode(c.tool, 80)} (${c.fields.join(', ')})`),
    ];
    lines.push(
      l.status === 'match'
        ? `Tool lock ${markdownCode(l.file)}: unchanged.`
        : `**Tool lock ${markdownCode(l.file)} changed:** ${changes.join('; ')}.`,
      '',
    );
  }
  if (options.htmlReport) lines.push(`Full evidence: [${options.htmlReport}](${options.htmlReport}).`, '');
  return lines.join('\n');
}

function revisionsHeadline(report: RevisionsReport): string {
  const runs = auditedRuns(report);
  if (runs.length === 0) return '⛔ no revision audited: the target supports none of those asked for';
  const on = (verdict: string) => runs.filter(({ run }) => run.verdict === verdict).map(({ revision }) => revision);
  if (on('aborted').length > 0) return `⛔ audit incomplete on ${on('aborted').join(', ')}`;
  if (on('fail').length > 0) return `❌ failing on ${on('fail').join(', ')}`;
  const warnings = runs.reduce((sum, { run }) => sum + run.summary.warn, 0);
  return warnings > 0 ? `⚠️ no failures, ${plural(warnings, 'warning')}` : '✅ no failures';
}

function revisionsTable(report: RevisionsReport): string[] {
  const lines = [
    `| Revision | Outcome | ${STATUSES.join(' | ')} |`,
    `| --- | --- | ${STATUSES.map(() => '---:').join(' | ')} |`,
  ];
  for (const entry of report.revisions) {
    if (entry.status !== 'audited') {
      lines.push(
        `| ${entry.revision} | ${notAuditedLabel(entry.status)}: ${markdownInline(entry.reason, 300)} | ` +
          `${STATUSES.map(() => NOT_AUDITED).join(' | ')} |`,
      );
    } else {
      lines.push(
        `| ${entry.revision} | ${headline(entry.run)} | ${STATUSES.map((s) => entry.run.summary[s]).join(' | ')} |`,
      );
    }
  }
  return lines;
}

/** The matrix: a column per revision, a row per check that decided something on some revision; the rest are counted. */
function matrixTable(report: RevisionsReport, options: MarkdownOptions): string[] {
  const revisions = columns(report);
  const shown = report.matrix.filter(isDecided);
  const lines = [`| Check | ${revisions.join(' | ')} |`, `| --- | ${revisions.map(() => '---').join(' | ')} |`];
  for (const row of shown) {
    const cells = revisions.map((revision) => {
      const text = cellText(row, revision);
      if (!options.htmlReport || text === 'n/a' || text === NOT_AUDITED) return text;
      return `[${text}](${options.htmlReport}#${revisionAnchorPrefix(revision)}check-${row.id})`;
    });
    lines.push(`| \`${row.id}\` | ${cells.join(' | ')} |`);
  }
  const folded = report.matrix.length - shown.length;
  if (folded > 0)
    lines.push(
      '',
      `${plural(folded, 'more check')} decided on no revision (skip or n/a on each); report.json lists them.`,
    );
  return lines;
}

/** A --revisions audit: each revision's outcome, the matrix of checks by revision, then each revision's findings. */
export function renderMarkdownRevisions(report: RevisionsReport, options: MarkdownOptions = {}): string {
  const runs = auditedRuns(report);
  const lines = [
    `## MCP tools conformance across revisions${runs[0] ? identityText(runs[0].run) : ''}: ` +
      `${revisionsHeadline(report)}`,
    '',
    `Target ${targetText({ target: report.target })} · revisions ${columns(report).join(', ')} · ` +
      `${formatDuration(report.durationMs)} · ${plural(runs.length, 'audit')}`,
    '',
    ...revisionsTable(report),
    '',
    '### Checks by revision',
    '',
    `A column per revision, a row per check (${MATRIX_LEGEND}).`,
    '',
    ...matrixTable(report, options),
    '',
  ];
  for (const { revision, run } of runs) {
    if (run.aborted)
      lines.push(`> **${revision}: the audit did not complete:** ${markdownInline(run.aborted.reason, 500)}`, '');
    lines.push(...findingsTables(run, options, revisionAnchorPrefix(revision), `${revision}: `));
    if (run.baseline)
      lines.push(
        `${revision}: baseline ${markdownCode(run.baseline.file)}: ${run.baseline.known} known, **` +
          `${run.baseline.new} new**, ${run.baseline.stale.length} stale, ${run.baseline.unconfirmed.length} ` +
          `unconfirmed.`,
        '',
      );
    if (run.lock?.status === 'changed')
      lines.push(`**${revision}: tool lock ${markdownCode(run.lock.file)} changed.**`, '');
  }
  if (options.htmlReport) lines.push(`Full evidence: [${options.htmlReport}](${options.htmlReport}).`, '');
  return lines.join('\n');
}

export function createMarkdownReporter(options: MarkdownOptions = {}): Reporter {
  return fileReporter(
    'markdown',
    MARKDOWN_REPORT_FILE,
    (report) => renderMarkdown(report, options),
    (report) => renderMarkdownRevisions(report, options),
  );
}
