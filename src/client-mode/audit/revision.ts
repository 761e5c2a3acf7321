import { isObject } from '../../core/jsonrpc.js';
import type { SeenMessage } from '../../model/client-observation.js';
import { isInitializeRevision, isRevision, LATEST_REVISION, type Revision } from '../../core/revision.js';
import { META_PROTOCOL_VERSION } from '../../core/meta-keys.js';

/**
 * The revision a client audit is judged on: the one the scripted server answered the client's first `initialize`
 * with, unless the client also spoke 2026-07-28 (a request whose `_meta` names it), which then wins; without either,
 * 2026-07-28 (the scripted server's own).
 */
export function agreedClientWire(messages: readonly SeenMessage[]): {
  wire: Revision;
  initialize: boolean;
  reason: string;
} {
  const flat = messages.flatMap((seen) =>
    (Array.isArray(seen.message) ? seen.message : [seen.message]).map((message) => ({ seen, message })),
  );
  const spokeLatest = flat.some(
    ({ message }) =>
      isObject(message) &&
      isObject(message.params) &&
      isObject(message.params._meta) &&
      message.params._meta[META_PROTOCOL_VERSION] === LATEST_REVISION,
  );
  const opened = flat.find(({ message }) => isObject(message) && message.method === 'initialize');
  if (spokeLatest || !opened)
    return {
      wire: LATEST_REVISION,
      initialize: false,
      reason: `client mode: the scripted server speaks ${LATEST_REVISION}`,
    };
  const offered =
    isObject(opened.message) && isObject(opened.message.params) ? opened.message.params.protocolVersion : undefined;
  const body = opened.seen.reply?.body;
  const answers = Array.isArray(body) ? body : [body];
  const answer = answers.find((a) => isObject(a) && isObject(a.result) && isRevision(a.result.protocolVersion));
  const agreed = isObject(answer) && isObject(answer.result) ? answer.result.protocolVersion : undefined;
  if (!isRevision(agreed) || !isInitializeRevision(agreed))
    return {
      wire: LATEST_REVISION,
      initialize: false,
      reason:
        `client mode: the client's initialize got no answer, so it is judged on ${LATEST_REVISION}, the ` +
        `scripted server's own`,
    };
  const how =
    agreed === offered
      ? `it offered ${agreed}`
      : `it offered ${JSON.stringify(offered)?.slice(0, 60) ?? 'no protocolVersion'}, which the scripted server ` +
        `does not speak, so it answered with its newest, ${agreed}`;
  return { wire: agreed, initialize: true, reason: `client mode: the client opened with initialize; ${how}` };
}
