import type { CheckResult } from '../../model/check.js';
import type { Revision } from '../../core/revision.js';
import { backing } from '../backing.js';
import { labelOf, STATUSES } from '../statuses.js';
import { blockText, escapeHtml, inlineText } from './escape.js';
import { renderEvidence, type EvidenceBudget } from './evidence.js';
import { areaAnchor } from './matrix.js';

const MAX_MESSAGE_CHARS = 8 * 1024;
const MAX_TOOL_CHARS = 300;

/**
 * Stable anchors, one per outcome in report order: `check-<id>` for a check's first outcome,
 * `check-<id>-<n>` (n = 2, 3, …) for its further ones; in a --revisions report each starts with its revision
 * (`2025-06-18-check-<id>`, see {@link revisionAnchorPrefix}). The Markdown reporter links to them.
 */
export function outcomeAnchors(checks: readonly Pick<CheckResult, 'id'>[], prefix = ''): string[] {
  const seen = new Map<string, number>();
  return checks.map((check) => {
    const n = (seen.get(check.id) ?? 0) + 1;
    seen.set(check.id, n);
    return n === 1 ? `${prefix}check-${check.id}` : `${prefix}check-${check.id}-${n}`;
  });
}

/** What the anchors of a revision's outcomes start with in a --revisions report. */
export function revisionAnchorPrefix(revision: Revision): string {
  return `${revision}-`;
}

function row(label: string, html: string): string {
  return `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`;
}

function outcomeBody(check: CheckResult, budget: EvidenceBudget): string {
  const facts = [
    row('Requirement', `<code>${escapeHtml(check.id)}</code> (${labelOf(check)})`),
    row('Spec', `<a href="${escapeHtml(check.specUrl)}" rel="noreferrer">${escapeHtml(check.specRef)}</a>`),
  ];
  if (check.quote !== undefined)
    facts.push(
      row(
        'Sentence',
        `<q class="quote">${escapeHtml(check.quote)}</q> <span class="muted">(` +
          `${escapeHtml(backing(check.keywordText))})</span>`,
      ),
    );
  if (check.tool !== undefined)
    facts.push(row('Tool', `<span class="untrusted">${inlineText(check.tool, MAX_TOOL_CHARS)}</span>`));
  facts.push(row('Duration', `${Math.round(check.durationMs)} ms`));
  const parts = [
    `<div class="message">${blockText(check.message, MAX_MESSAGE_CHARS)}</div>`,
    `<dl class="facts">${facts.join('')}</dl>`,
  ];
  if (check.expected !== undefined)
    parts.push(`<h4>Expected</h4><div class="message expected">${blockText(check.expected, MAX_MESSAGE_CHARS)}</div>`);
  if (check.replay !== undefined)
    parts.push(`<h4>Replay</h4><pre class="replay">${blockText(check.replay, MAX_MESSAGE_CHARS)}</pre>`);
  parts.push(renderEvidence(check.evidence, budget));
  return parts.join('');
}

function outcome(check: CheckResult, anchor: string, budget: EvidenceBudget): string {
  const tool =
    check.tool === undefined ? '' : ` <span class="untrusted">${inlineText(check.tool, MAX_TOOL_CHARS)}</span>`;
  const summary =
    `<span class="badge ${check.status}">${check.status}</span>` +
    `<span class="keyword">${labelOf(check)}</span>` +
    `<code>${escapeHtml(check.id)}</code>` +
    `<span class="title">${escapeHtml(check.title)}</span>${tool}`;
  return (
    `<details class="check" id="${escapeHtml(anchor)}" data-status="${check.status}" data-check="` +
    `${escapeHtml(check.id)}"><summary>${summary}</summary><div class="check-body">${outcomeBody(check, budget)}` +
    `</div></details>`
  );
}

const FINDING_STATUSES: readonly string[] = ['fail', 'warn', 'error'];

/** The page opens on its findings when there are any (the script applies the boxes as rendered), else on everything. */
export function renderFilters(total: number, findings: number): string {
  const failuresOnly = findings > 0;
  const checked = (status: string) => (!failuresOnly || FINDING_STATUSES.includes(status) ? ' checked' : '');
  const boxes = STATUSES.map(
    (s) => `<label><input type="checkbox" name="status" value="${s}"${checked(s)}> ${s}</label>`,
  ).join('');
  return (
    `<form id="filters" aria-label="Filter check outcomes">` +
    `<label><input type="checkbox" id="failures-only"${failuresOnly ? ' checked' : ''}> <strong>failures ` +
    `only</strong> (fail, warn, error)</label>` +
    `<span>${boxes}</span>` +
    `<button type="button" id="expand-shown">expand shown</button><button type="button" ` +
    `id="collapse-all">collapse all</button>` +
    `<span class="muted"><span id="shown-count">${total}</span> of ${total} outcomes shown</span>` +
    `</form>`
  );
}

export interface AnchoredOutcome {
  check: CheckResult;
  anchor: string;
}

/**
 * The outcomes by area; `prefix` keeps the area anchors of one revision's run apart from the others' in a --revisions
 * page.
 */
export function renderOutcomes(
  areas: ReadonlyMap<string, readonly AnchoredOutcome[]>,
  budget: EvidenceBudget,
  prefix = '',
  heading = 'h2',
): string {
  return [...areas]
    .map(([area, outcomes]) => {
      const items = outcomes.map(({ check, anchor }) => outcome(check, anchor, budget)).join('');
      return (
        `<section class="area" id="${escapeHtml(prefix + areaAnchor(area))}" data-area="${escapeHtml(area)}"><` +
        `${heading}>${escapeHtml(area)}</${heading}>${items}</section>`
      );
    })
    .join('');
}
