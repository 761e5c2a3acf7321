import { canonicalJson } from '../../src/core/canonical-json.js';
import type { SpecSentence } from '../../src/model/check.js';
import type { Revision } from '../../src/core/revision.js';

/**
 * The rule of the initialize revisions (2024-11-05 basic/messages, 2025-03-26 to 2025-11-25 basic/index): a
 * requestor's ids are never used twice in a session. 2026-07-28 has no session, and servers there send no requests.
 */
export function idNeverReusedSentence(wire: Revision): SpecSentence {
  return {
    ref: wire === '2024-11-05' ? 'basic/messages#requests' : 'basic/index#requests',
    text: 'The request ID MUST NOT have been previously used by the requestor within the same session.',
    keyword: 'MUST NOT',
  };
}

/**
 * Each item whose key an earlier item of the same group already used, with that earlier one (keys compared as JSON: 1
 * and "1" differ).
 */
export function reusedKeys<T>(
  items: readonly T[],
  groupOf: (item: T) => string,
  keyOf: (item: T) => unknown,
): { item: T; earlier: T }[] {
  const seen = new Map<string, T>();
  const found: { item: T; earlier: T }[] = [];
  for (const item of items) {
    const key = `${groupOf(item)}\u0000${canonicalJson(keyOf(item))}`;
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, item);
    else found.push({ item, earlier });
  }
  return found;
}
