import { join } from 'node:path';
import type { CheckResult, Status } from '../model/check.js';
import { formatDuration } from './duration.js';
import { KEYWORDS, STATUSES, countByStatus } from './statuses.js';
import { terminalInline } from './text-safety.js';
import { fileReporter } from './file-reporter.js';
import type { Reporter } from './types.js';
import type { RunReport } from '../model/report.js';

export const MARKDOWN_REPORT_FILE = 'summary.md';
const MAX_ROWS = 50;
const MAX_CELL_CHARS = 200;

export interface MarkdownOptions {
  /** The HTML report's file name when it is written in the same run: requirement IDs then link into it. */
  htmlReport?: string;
}

/** Target text made inert for Markdown: one line, control characters shown escaped, markup characters backslash-escaped. */
export function markdownInline(text: string, maxChars = MAX_CELL_CHARS): string {
  return terminalInline(text, maxChars).replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`);
}

/** Target text as an inline code span: one line, escaped controls, no backtick that could end the span. */
export function markdownCode(text: string, maxChars = MAX_CELL_CHARS): string {
  return `\`${terminalInline(text, maxChars).replace(/`/g, "'")}\``;
}

function anchorOf(check: CheckResult, seen: Map<string, number>): string {
  const n = (seen.get(check.id) ?? 0) + 1;
  seen.set(check.id, n);
  return n === 1 ? `check-${check.id}` : `check-${check.id}-${n}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function headline(report: RunReport): string {
  const { fail, warn, error } = report.summary;
  if (report.aborted || error > 0) return '⛔ audit incomplete';
  const known = report.checks.filter((c) => c.baselined && c.status === 'fail').length;
  const failing = fail - known;
  const lockChanged = report.lock?.status === 'changed' ? ', tool set changed since the lock' : '';
  const knownText = known > 0 ? ` (${known} known)` : '';
  if (failing > 0) return `❌ ${plural(failing, report.baseline ? 'new failure' : 'failure')}${knownText}${lockChanged}`;
  if (lockChanged) return `❌ no failures${knownText}${lockChanged}`;
  if (warn > 0) return `⚠️ no failures${knownText}, ${plural(warn, 'warning')}`;
  return `✅ no failures${knownText}`;
}

function targetText(report: RunReport): string {
  const t = report.target;
  if (report.client) return `client \`${t.command ?? ''}\` over ${t.transport === 'http' ? 'Streamable HTTP' : 'stdio'}`;
  if (t.transport === 'http+sse') return `\`${t.url ?? ''}\` over HTTP+SSE (2024-11-05)`;
  return t.transport === 'http' ? `\`${t.url ?? ''}\`` : t.transport === 'snapshot' ? `snapshot \`${t.file ?? ''}\`` : `\`${t.command ?? ''}\``;
}

function countsTable(report: RunReport): string[] {
  const lines = [`| Keyword | ${STATUSES.join(' | ')} |`, `| --- | ${STATUSES.map(() => '---:').join(' | ')} |`];
  for (const keyword of KEYWORDS) {
    const counts = countByStatus(report.checks.filter((c) => c.keyword === keyword));
    lines.push(`| ${keyword} | ${STATUSES.map((s) => counts[s]).join(' | ')} |`);
  }
  lines.push(`| **all** | ${STATUSES.map((s) => `**${report.summary[s]}**`).join(' | ')} |`);
  return lines;
}

function findingsTable(title: string, rows: { check: CheckResult; anchor: string }[], options: MarkdownOptions): string[] {
  if (rows.length === 0) return [];
  const lines = [`### ${title}`, '', '| Requirement | Keyword | Tool | Finding |', '| --- | --- | --- | --- |'];
  for (const { check, anchor } of rows.slice(0, MAX_ROWS)) {
    const id = options.htmlReport ? `[\`${check.id}\`](${options.htmlReport}#${anchor})` : `\`${check.id}\``;
    const known = check.baselined ? ' _(known: in the baseline)_' : '';
    lines.push(`| ${id} | [${check.keywordText}](${check.specUrl}) | ${check.tool !== undefined ? markdownInline(check.tool, 80) : ''} | ${markdownInline(check.message)}${known} |`);
  }
  if (rows.length > MAX_ROWS) lines.push(`| … | | | ${rows.length - MAX_ROWS} more in the full report |`);
  lines.push('');
  return lines;
}

export function renderMarkdown(report: RunReport, options: MarkdownOptions = {}): string {
  const seen = new Map<string, number>();
  const rows = report.checks.map((check) => ({ check, anchor: anchorOf(check, seen) }));
  const byStatus = (status: Status) => rows.filter((r) => r.check.status === status);
  const identity = report.client ?? report.server;
  const server = identity?.name ? ` — ${report.client ? 'client ' : ''}${markdownInline(identity.name, 80)}${identity.version ? ` ${markdownInline(identity.version, 40)}` : ''}` : '';
  const lines = [
    `## MCP tools conformance${server}: ${headline(report)}`,
    '',
    `Target ${targetText(report)} · wire ${report.wire.protocolVersion ?? 'not negotiated'} · ${formatDuration(report.durationMs)} · ${report.stats.requests} requests · ${report.checks.length} check outcomes`,
    '',
  ];
  if (report.aborted) lines.push(`> **The audit did not complete:** ${markdownInline(report.aborted.reason, 500)}`, '');
  lines.push(...countsTable(report), '');
  lines.push(...findingsTable('Failures', byStatus('fail'), options));
  lines.push(...findingsTable('Warnings', byStatus('warn'), options));
  lines.push(...findingsTable('Errors (the audit could not decide)', byStatus('error'), options));
  if (report.baseline) {
    const b = report.baseline;
    lines.push(`Baseline ${markdownCode(b.file)}: ${b.known} known, **${b.new} new**, ${b.stale.length} stale, ${b.unconfirmed.length} unconfirmed.`);
    if (b.stale.length > 0) {
      lines.push(`Stale (now passing, remove from the baseline): ${b.stale.map((e) => `${markdownCode(e.check)}${e.tool !== undefined ? ` [${markdownInline(e.tool, 80)}]` : ''}`).join(', ')}`);
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
    lines.push(l.status === 'match' ? `Tool lock ${markdownCode(l.file)}: unchanged.` : `**Tool lock ${markdownCode(l.file)} changed:** ${changes.join('; ')}.`, '');
  }
  if (options.htmlReport) lines.push(`Full evidence: [${options.htmlReport}](${options.htmlReport}).`, '');
  return lines.join('\n');
}

export function createMarkdownReporter(options: MarkdownOptions = {}): Reporter {
  return fileReporter('markdown', MARKDOWN_REPORT_FILE, (report) => renderMarkdown(report, options));
}
