import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, isObject, INITIALIZE_REVISIONS, type StrayEvent } from '../kit/index.js';
import { idNeverReusedSentence, reusedKeys } from '../kit/id-never-reused.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { perRevision } from '../kit/same-sentences.js';

const idOf = (stray: StrayEvent): unknown => (stray.data as Record<string, unknown>).id;
const methodOf = (stray: StrayEvent): string => String((stray.data as Record<string, unknown>).method).slice(0, 100);

/**
 * base.req.id-never-reused (the server as requestor): the requests the server sent on the audit's connection, which is
 * one session (over stdio the process, over HTTP the session the audit's initialize opened), as the transport kept
 * them.
 */
export const serverIdsNeverReused: CheckDefinition = defineCheck({
  id: 'base.req.id-never-reused',
  title: 'The server never reuses the id of a request it sent earlier in the session',
  area: 'wire',
  sentences: perRevision(INITIALIZE_REVISIONS, (wire) => [idNeverReusedSentence(wire)]),
  phase: 'final',
  run(ctx) {
    const requests = ctx.strays().filter((s) => s.kind === 'server-request' && isObject(s.data) && 'id' in s.data);
    if (requests.length < 2)
      return [
        skip(
          `the server sent ${requests.length === 0 ? 'no request' : 'one request'} to the client in the ` +
            `audited session: no id could be reused`,
        ),
      ];
    const reused = reusedKeys(requests, () => 'session', idOf);
    if (reused.length === 0)
      return [
        pass(
          `${requests.length} requests from the server (${[...new Set(requests.map(methodOf))].join(', ')}) ` +
            `each had an id not used before in the session`,
        ),
      ];
    const shown = reused.slice(0, 3);
    return [
      fail(
        `${reused.length} of ${requests.length} requests from the server reused an id of the session: ` +
          `${shown
            .map(
              ({ item, earlier }) =>
                `${methodOf(item)} with id ${JSON.stringify(idOf(item))} (at ` +
                `${item.at}), the id of ${methodOf(earlier)} at ${earlier.at}`,
            )
            .join('; ')}`,
        'a new id for every request the server sends within the session',
        shown.flatMap(({ item, earlier }) => [
          note('the earlier request', earlier.data),
          note('the request reusing its id', item.data),
        ]),
      ),
    ];
  },
});

export const ID_NEVER_REUSED_CHECKS = [serverIdsNeverReused] as const;
