import { keywordLabel, type CheckResult, type Keyword, type KeywordLabel, type Status } from '../model/check.js';

const STATUS_SET = { pass: true, fail: true, warn: true, skip: true, error: true } satisfies Record<Status, true>;
const KEYWORD_SET = { MUST: true, SHOULD: true, MAY: true } satisfies Record<Keyword, true>;

/** Every status, in the order reports list them. */
export const STATUSES = Object.keys(STATUS_SET) as Status[];
/** Every keyword class (report.json's `keyword`), strongest first. */
export const KEYWORDS = Object.keys(KEYWORD_SET) as Keyword[];

const LABEL_SET = { MUST: true, SCHEMA: true, SHOULD: true, MAY: true, DESCRIPTIVE: true } satisfies Record<
  KeywordLabel,
  true
>;
/** Every keyword label, in the order reports list them: those that can fail first, descriptive text last. */
export const KEYWORD_LABELS = Object.keys(LABEL_SET) as KeywordLabel[];
/** The widest label, for console columns. */
export const KEYWORD_LABEL_WIDTH = Math.max(...KEYWORD_LABELS.map((label) => label.length));

/**
 * The label a report shows for what backs a finding, read from its keyword text (so a report.json of any version has
 * one).
 */
export function labelOf(check: Pick<CheckResult, 'keywordText'>): KeywordLabel {
  return keywordLabel(check.keywordText);
}

export function emptyStatusCounts(): Record<Status, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
}

export function countByStatus(items: readonly { status: Status }[]): Record<Status, number> {
  const counts = emptyStatusCounts();
  for (const item of items) counts[item.status] += 1;
  return counts;
}
