import { isObject } from '../../src/jsonrpc.js';
import { canonicalJson } from '../../src/canonical-json.js';
import type { CheckDefinition } from '../../src/runner/types.js';
import type { SpecSentence } from '../../src/model/check.js';
import type { StrayEvent } from '../../src/model/exchange.js';
import { LEGACY, type Wire } from '../../src/model/wire.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { perWire } from '../kit/same-sentences.js';

/**
 * The rule of the initialize revisions (2024-11-05 basic/messages, 2025-03-26 to 2025-11-25 basic/index): a
 * requestor's ids are never used twice in a session. 2026-07-28 has no session, and servers there send no requests.
 */
export function idNeverReusedSentence(wire: Wire): SpecSentence {
  return {
    ref: wire === '2024-11-05' ? 'basic/messages#requests' : 'basic/index#requests',
    text: 'The request ID MUST NOT have been previously used by the requestor within the same session.',
    keyword: 'MUST NOT',
  };
}

/** Each item whose key an earlier item of the same group already used, with that earlier one (keys compared as JSON: 1 and "1" differ). */
export function reusedKeys<T>(items: readonly T[], groupOf: (item: T) => string, keyOf: (item: T) => unknown): { item: T; earlier: T }[] {
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

const idOf = (stray: StrayEvent): unknown => (stray.data as Record<string, unknown>).id;
const methodOf = (stray: StrayEvent): string => String((stray.data as Record<string, unknown>).method).slice(0, 100);

/**
 * base.req.id-never-reused (the server as requestor): the requests the server sent on the audit's connection, which is
 * one session (over stdio the process, over HTTP the session the audit's initialize opened), as the transport kept them.
 */
export const serverIdsNeverReused: CheckDefinition = {
  id: 'base.req.id-never-reused',
  keyword: 'MUST NOT',
  title: 'The server never reuses the id of a request it sent earlier in the session',
  specRef: 'basic/index#requests',
  area: 'wire',
  sentences: perWire(LEGACY, (wire) => [idNeverReusedSentence(wire)]),
  phase: 'final',
  run(ctx) {
    const requests = ctx.strays().filter((s) => s.kind === 'server-request' && isObject(s.data) && 'id' in s.data);
    if (requests.length < 2) return [skip(`the server sent ${requests.length === 0 ? 'no request' : 'one request'} to the client in the audited session: no id could be reused`)];
    const reused = reusedKeys(requests, () => 'session', idOf);
    if (reused.length === 0) return [pass(`${requests.length} requests from the server (${[...new Set(requests.map(methodOf))].join(', ')}) each had an id not used before in the session`)];
    const shown = reused.slice(0, 3);
    return [
      fail(
        `${reused.length} of ${requests.length} requests from the server reused an id of the session: ${shown.map(({ item, earlier }) => `${methodOf(item)} with id ${JSON.stringify(idOf(item))} (at ${item.at}), the id of ${methodOf(earlier)} at ${earlier.at}`).join('; ')}`,
        'a new id for every request the server sends within the session',
        shown.flatMap(({ item, earlier }) => [note('the earlier request', earlier.data), note('the request reusing its id', item.data)]),
      ),
    ];
  },
};

export const ID_NEVER_REUSED_CHECKS = [serverIdsNeverReused] as const;
