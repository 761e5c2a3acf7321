import type { Keyword, Status } from '../model/check.js';

const STATUS_SET = { pass: true, fail: true, warn: true, skip: true, error: true } satisfies Record<Status, true>;
const KEYWORD_SET = { MUST: true, SHOULD: true, MAY: true } satisfies Record<Keyword, true>;

/** Every status, in the order reports list them. */
export const STATUSES = Object.keys(STATUS_SET) as Status[];
/** Every keyword class, strongest first. */
export const KEYWORDS = Object.keys(KEYWORD_SET) as Keyword[];

export function emptyStatusCounts(): Record<Status, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
}

export function countByStatus(items: readonly { status: Status }[]): Record<Status, number> {
  const counts = emptyStatusCounts();
  for (const item of items) counts[item.status] += 1;
  return counts;
}
