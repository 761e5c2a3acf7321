import type { Evidence, EvidenceNote } from '../../model/check.js';
import type { Exchange } from '../../model/exchange.js';
import { boundEvidence, truncateString } from '../evidence-bounds.js';
import { blockText, escapeHtml, inlineText } from './escape.js';

const EVIDENCE_LIMITS = { maxStringLength: 4 * 1024, maxItems: 10, maxArrayLength: 100, maxDepth: 32 };
/** Longest pretty-printed block shown; the rest is cut with a visible marker. */
export const MAX_BLOCK_CHARS = 16 * 1024;
/** Evidence text shown per check outcome. */
export const MAX_OUTCOME_EVIDENCE_CHARS = 64 * 1024;
/** Evidence text shown on the whole page, so a hostile target cannot make the file unopenable. */
export const MAX_PAGE_EVIDENCE_CHARS = 8 * 1024 * 1024;

/** What is left of the page's evidence allowance; shared by every outcome of one page. */
export interface EvidenceBudget {
  remaining: number;
}

export function pageEvidenceBudget(): EvidenceBudget {
  return { remaining: MAX_PAGE_EVIDENCE_CHARS };
}

function isNote(item: Evidence): item is EvidenceNote {
  return 'note' in item;
}

function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** Renders labelled blocks until the outcome's or the page's allowance is spent. */
class BlockWriter {
  private omitted = 0;
  readonly parts: string[] = [];

  constructor(
    private readonly page: EvidenceBudget,
    private readonly outcome: EvidenceBudget,
  ) {}

  block(label: string, text: string): void {
    const allowance = Math.min(MAX_BLOCK_CHARS, this.outcome.remaining, this.page.remaining);
    if (allowance <= 0) {
      this.omitted += 1;
      return;
    }
    const shown = truncateString(text, allowance);
    this.outcome.remaining -= shown.length;
    this.page.remaining -= shown.length;
    this.parts.push(
      `<div class="ev-part"><div class="ev-label">${escapeHtml(label)}</div><pre>` +
        `${blockText(shown, shown.length)}</pre></div>`,
    );
  }

  json(label: string, value: unknown): void {
    this.block(label, prettyJson(value));
  }

  omissionNote(): string {
    return this.omitted === 0
      ? ''
      : `<p class="truncated">…[${this.omitted} more evidence block(s) not shown: size limit reached; ` +
          `report.json has them]</p>`;
  }
}

function exchangeTitle(exchange: Exchange): string {
  const parts = [`exchange #${exchange.seq}`, exchange.sentAt, `${exchange.durationMs} ms`];
  if (exchange.status !== undefined) parts.push(`HTTP ${exchange.status}`);
  if (exchange.failure) parts.push(`failure: ${exchange.failure.kind}`);
  return parts.map((part) => inlineText(String(part), 200)).join(' · ');
}

function writeExchange(writer: BlockWriter, exchange: Exchange): void {
  if (exchange.failure) writer.block('failure', `${exchange.failure.kind}: ${exchange.failure.message}`);
  if (exchange.requestHeaders) writer.json('request headers', exchange.requestHeaders);
  writer.json('request', exchange.request);
  if (exchange.responseHeaders) writer.json('response headers', exchange.responseHeaders);
  if (exchange.response !== undefined) writer.json('response', exchange.response);
  if (exchange.rawBody !== undefined) writer.block('raw body', exchange.rawBody);
  if (exchange.notifications.length > 0)
    writer.json(`notifications (${exchange.notifications.length})`, exchange.notifications);
}

/** The exchanges and notes of one check outcome, bounded, pretty-printed and escaped. */
export function renderEvidence(evidence: readonly Evidence[], budget: EvidenceBudget): string {
  if (evidence.length === 0) return '';
  const outcome: EvidenceBudget = { remaining: MAX_OUTCOME_EVIDENCE_CHARS };
  const items = boundEvidence(evidence, EVIDENCE_LIMITS).map((item) => {
    const writer = new BlockWriter(budget, outcome);
    if (isNote(item)) {
      writer.block('note', item.note);
      if (item.data !== undefined) writer.json('data', item.data);
      return (
        `<div class="ev-item"><div class="ev-title">note</div>${writer.parts.join('')}${writer.omissionNote()}` +
        `</div>`
      );
    }
    writeExchange(writer, item);
    return (
      `<div class="ev-item"><div class="ev-title">${exchangeTitle(item)}</div>${writer.parts.join('')}` +
      `${writer.omissionNote()}</div>`
    );
  });
  return `<div class="evidence"><h4>Evidence</h4>${items.join('')}</div>`;
}
