import {
  auditedRuns,
  notAuditedLabel,
  type MatrixRow,
  type RevisionsReport,
  type RunReport,
} from '../../model/report.js';
import type { Revision } from '../../core/revision.js';
import { formatDuration } from '../duration.js';
import { cellText, columns, MATRIX_LEGEND, NOT_AUDITED } from '../revision-matrix.js';
import { STATUSES } from '../statuses.js';
import { outcomeAnchors, renderFilters, renderOutcomes, revisionAnchorPrefix } from './checks.js';
import { escapeHtml, inlineText } from './escape.js';
import { pageEvidenceBudget, type EvidenceBudget } from './evidence.js';
import { renderFacts } from './header.js';
import { groupByArea } from './matrix.js';
import { htmlPage, pageTitle } from './page.js';

const MAX_REASON_CHARS = 500;

const revisionSection = (revision: Revision) => `revision-${revision}`;

function targetText(report: RevisionsReport): string {
  const target = report.target.command ?? report.target.url ?? report.target.file;
  return (
    `${escapeHtml(report.target.transport)}` +
    `${target === undefined ? '' : `: <span class="untrusted">${inlineText(target, MAX_REASON_CHARS)}</span>`}`
  );
}

function renderHeader(report: RevisionsReport): string {
  const runs = auditedRuns(report);
  const requests = runs.reduce((sum, { run }) => sum + run.stats.requests, 0);
  const facts = [
    ['Target', targetText(report)],
    [
      'Revisions',
      `${report.revisions.length} asked, ${runs.length} audited, one after another, each on a connection of its own`,
    ],
    ['Started', escapeHtml(report.startedAt)],
    ['Duration', escapeHtml(formatDuration(report.durationMs))],
    ['Requests', String(requests)],
  ];
  return (
    `<dl class="facts">` +
    `${facts.map(([label, html]) => `<dt>${escapeHtml(label!)}</dt><dd>${html}</dd>`).join('')}</dl>`
  );
}

/** Each revision's outcome: its verdict and counts, or what the target answered when it was offered. */
function renderRevisionTable(report: RevisionsReport): string {
  const head =
    `<tr><th>Revision</th><th class="outcome">Outcome</th>` + `${STATUSES.map((s) => `<th>${s}</th>`).join('')}</tr>`;
  const rows = report.revisions.map((entry) => {
    const revision = escapeHtml(entry.revision);
    if (entry.status !== 'audited') {
      return (
        `<tr data-revision="${revision}" data-outcome="${entry.status}"><th>${revision}</th><td ` +
        `class="outcome" colspan="${STATUSES.length + 1}">${notAuditedLabel(entry.status)}, not audited: <span ` +
        `class="untrusted">${inlineText(entry.reason, MAX_REASON_CHARS)}</span></td></tr>`
      );
    }
    const verdict = entry.run.verdict ?? 'aborted';
    const counts = STATUSES.map(
      (s) =>
        `<td class="${s} ${entry.run.summary[s] === 0 ? 'zero' : 'nonzero'}" data-count="${s}">` +
        `${entry.run.summary[s]}</td>`,
    ).join('');
    return (
      `<tr data-revision="${revision}" data-outcome="${verdict}"><th><a href="#` +
      `${revisionSection(entry.revision)}">${revision}</a></th><td class="outcome"><span class="badge ` +
      `${verdict === 'aborted' ? 'error' : verdict}">${verdict}</span></td>${counts}</tr>`
    );
  });
  return (
    `<section id="revisions-section"><h2>Revisions</h2><table id="revisions"><thead>${head}</thead><tbody>` +
    `${rows.join('')}</tbody></table></section>`
  );
}

function matrixCell(row: MatrixRow, revision: Revision): string {
  const text = cellText(row, revision);
  const where = `data-revision="${escapeHtml(revision)}"`;
  if (text === NOT_AUDITED) return `<td class="cell na" ${where} data-cell="not-audited">${NOT_AUDITED}</td>`;
  if (text === 'n/a') return `<td class="cell na" ${where} data-cell="n/a">n/a</td>`;
  const anchor = `${revisionAnchorPrefix(revision)}check-${row.id}`;
  return `<td class="cell ${text}" ${where} data-cell="${text}"><a href="#${escapeHtml(anchor)}">${text}</a></td>`;
}

/** The matrix: a row per check, a column per revision; a status cell opens that revision's outcome of the check. */
function renderRevisionMatrix(report: RevisionsReport): string {
  const revisions = columns(report);
  const supported = new Set(auditedRuns(report).map(({ revision }) => revision));
  const head = `<tr><th>Check</th>${revisions
    .map(
      (revision) =>
        `<th data-revision="${escapeHtml(revision)}">${escapeHtml(revision)}` +
        `${supported.has(revision) ? '' : '<br><span class="muted">not supported</span>'}</th>`,
    )
    .join('')}</tr>`;
  const rows = report.matrix.map(
    (row) =>
      `<tr data-check="${escapeHtml(row.id)}" data-area="${escapeHtml(row.area)}"><th><code>` +
      `${escapeHtml(row.id)}</code> <span class="muted">${escapeHtml(row.title)}</span></th>` +
      `${revisions.map((revision) => matrixCell(row, revision)).join('')}</tr>`,
  );
  return (
    `<section id="revision-matrix-section"><h2>Checks by revision</h2><p class="muted">A row per check, a ` +
    `column per revision (${escapeHtml(MATRIX_LEGEND)}); a status opens that outcome below.</p><table ` +
    `id="revision-matrix"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></section>`
  );
}

function renderRun(revision: Revision, run: RunReport, budget: EvidenceBudget): string {
  const prefix = revisionAnchorPrefix(revision);
  const anchors = outcomeAnchors(run.checks, prefix);
  const anchored = run.checks.map((check, index) => ({ check, anchor: anchors[index]! }));
  const outcomes = renderOutcomes(
    groupByArea(anchored, (entry) => entry.check.area),
    budget,
    prefix,
    'h3',
  );
  return (
    `<section class="revision" id="${revisionSection(revision)}" data-revision="${escapeHtml(revision)}` +
    `"><h2>Revision ${escapeHtml(revision)}</h2>${renderFacts(run)}${outcomes}</section>`
  );
}

/**
 * One self-contained page for a --revisions audit: each revision's outcome, the matrix of checks by revision, and
 * every revision's outcomes with their evidence (anchors `<revision>-check-<id>`), under the one set of filters.
 */
export function renderHtmlRevisions(report: RevisionsReport): string {
  const runs = auditedRuns(report);
  const checks = runs.flatMap(({ run }) => run.checks);
  const findings = checks.filter(
    (check) => check.status === 'fail' || check.status === 'warn' || check.status === 'error',
  ).length;
  const budget = pageEvidenceBudget();
  const body = `<header><h1>MCP Tools conformance report: revision matrix</h1>${renderHeader(report)}</header>
<main>
${renderRevisionTable(report)}
${renderRevisionMatrix(report)}
<section id="outcomes"><h2>Check outcomes</h2>
${renderFilters(checks.length, findings)}
${runs.map(({ revision, run }) => renderRun(revision, run, budget)).join('\n')}
</section>
</main>`;
  const judged =
    runs.length === 0
      ? 'no MCP revision: the target supports none of those asked for'
      : `MCP revisions ${runs.map(({ revision }) => escapeHtml(revision)).join(', ')}, each run under its own`;
  return htmlPage(
    pageTitle(runs[0]?.run.server?.name, 'MCP Tools conformance revision matrix'),
    body,
    `Generated by ${escapeHtml(report.tool.name)} ${escapeHtml(report.tool.version)}, judged under ${judged}.`,
  );
}
