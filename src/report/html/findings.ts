import type { CheckResult } from '../../model/check.js';
import type { AnchoredOutcome } from './checks.js';
import { escapeHtml, inlineText } from './escape.js';

/** The order findings are listed in: failures first, then warnings, then what could not be decided (as summary.md). */
const FINDING_ORDER: readonly CheckResult['status'][] = ['fail', 'warn', 'error'];
/** Findings listed at the top; the rest are in the outcomes below (the page opens on them). */
const MAX_LISTED = 100;
const MAX_TOOL_CHARS = 120;
const MAX_MESSAGE_CHARS = 300;

/**
 * The findings before anything else: every failure, then every warning, then every error, whatever their areas, each a
 * link to its outcome below (the page's script opens it). Nothing when the run found nothing.
 */
export function renderFindingsList(outcomes: readonly AnchoredOutcome[]): string {
  const findings = FINDING_ORDER.flatMap((status) => outcomes.filter(({ check }) => check.status === status));
  if (findings.length === 0) return '';
  const items = findings.slice(0, MAX_LISTED).map(({ check, anchor }) => {
    const tool =
      check.tool === undefined ? '' : ` <span class="untrusted">${inlineText(check.tool, MAX_TOOL_CHARS)}</span>`;
    const message = check.message.split('\n', 1)[0] ?? '';
    return (
      `<li data-status="${check.status}"><a href="#${escapeHtml(anchor)}"><span class="badge ${check.status}">` +
      `${check.status}</span> <code>${escapeHtml(check.id)}</code></a>` +
      `${tool} <span class="muted">${inlineText(message, MAX_MESSAGE_CHARS)}</span></li>`
    );
  });
  const more =
    findings.length > MAX_LISTED
      ? `<p class="muted">… ${findings.length - MAX_LISTED} more in the check outcomes below.</p>`
      : '';
  return `<section id="findings-list"><h2>Findings</h2><ol class="findings">${items.join('')}</ol>${more}</section>`;
}
