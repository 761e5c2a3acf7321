import {
  canonicalJson,
  type ClientCheckContext,
  type ClientCheckDefinition,
  evidenceOf,
  isObject,
  TOOL,
} from '../kit/index.js';
import { clientCheck, describeRequest, judgeRequests, retries, sameId, sentence, skip } from './kit.js';

const CLIENT_REQUIREMENTS = 'basic/patterns/mrtr#client-requirements-basic-workflow';
const noRetry = (ctx: ClientCheckContext) =>
  retries(ctx).length === 0
    ? 'no tools/call was answered with input_required'
    : 'the client retried none of the calls answered with input_required';

/** Why mrtr_ask asked nothing: it was not called, or its call declared no capability an input request could use. */
const askSkip = (ctx: ClientCheckContext, what: string) =>
  ctx.calls(TOOL.mrtrAsk).length === 0
    ? `${what}: the client did not call ${TOOL.mrtrAsk}`
    : `${what}: the calls of ${TOOL.mrtrAsk} declared neither elicitation nor roots, so it asked nothing`;

/** The (original, retry) pairs whose input_required result matches `which`; `judged` counts those retried. */
function pairs(ctx: ClientCheckContext, which: (irr: Record<string, unknown>) => boolean) {
  const all = retries(ctx).filter((p) => which(p.irr));
  return { all, retried: all.flatMap((p) => (p.retry ? [{ ...p, retry: p.retry }] : [])) };
}

export const RETRY_NEW_ID = clientCheck({
  id: 'tools.call.retry-new-id',
  title: 'An MRTR retry has a new JSON-RPC id',
  area: 'mrtr',
  scenario: 'mrtr',
  sentences: [
    sentence(
      'server/tools#input-required-tool-results',
      'Note that the JSON-RPC id MUST be different between the initial request and the retry.',
      'MUST',
    ),
    sentence(
      CLIENT_REQUIREMENTS,
      'The JSON-RPC id MUST be different between the initial request and the retry, as they are independent requests.',
      'MUST',
    ),
  ],
  run(ctx) {
    const { retried } = pairs(ctx, () => true);
    const offenders = retried
      .filter((p) => sameId(p.original.id, p.retry.id))
      .map((p) => ({
        request: p.retry,
        problem: `${describeRequest(p.retry)} retries ${describeRequest(p.original)} with the same id`,
      }));
    return judgeRequests(
      retried.length,
      noRetry(ctx),
      offenders,
      `all ${retried.length} retries have ids of their own`,
      'a retry id different from the id of the request it retries',
    );
  },
});

export const ECHO_REQUEST_STATE = clientCheck({
  id: 'mrtr.client.echo-requeststate',
  covers: ['mrtr.requeststate.client-opaque'],
  title: 'The retry echoes requestState byte for byte',
  area: 'mrtr',
  scenario: 'mrtr',
  sentences: [
    sentence(
      CLIENT_REQUIREMENTS,
      'If an InputRequiredResult contains the requestState field, the client MUST echo back the exact value of ' +
        'that field when retrying the original request.',
      'MUST',
    ),
    sentence(
      CLIENT_REQUIREMENTS,
      'Clients MUST NOT inspect, parse, modify, or make any assumptions about the requestState contents.',
      'MUST NOT',
    ),
  ],
  run(ctx) {
    const { all, retried } = pairs(ctx, (irr) => typeof irr.requestState === 'string');
    if (all.length === 0) return [skip('no input_required result with a requestState was answered')];
    const offenders = retried
      .filter((p) => p.retry.params.requestState !== p.irr.requestState)
      .map((p) => ({
        request: p.retry,
        problem:
          `${describeRequest(p.retry)} sent requestState ${JSON.stringify(p.retry.params.requestState)} for ` +
          `${JSON.stringify(p.irr.requestState)}`,
      }));
    return judgeRequests(
      retried.length,
      noRetry(ctx),
      offenders,
      `all ${retried.length} retries echo the requestState exactly`,
      'the exact requestState string of the input_required result',
    );
  },
});

export const NO_SPURIOUS_STATE = clientCheck({
  id: 'mrtr.client.no-spurious-requeststate',
  title: 'No requestState in a retry when the server sent none',
  area: 'mrtr',
  scenario: 'mrtr',
  sentences: [
    sentence(
      CLIENT_REQUIREMENTS,
      'If the InputRequiredResult does not contain a requestState field, the client MUST NOT include one in the retry.',
      'MUST NOT',
    ),
  ],
  run(ctx) {
    const { all, retried } = pairs(ctx, (irr) => !('requestState' in irr));
    if (all.length === 0) return [skip(askSkip(ctx, 'no input_required result without a requestState was answered'))];
    const offenders = retried
      .filter((p) => 'requestState' in p.retry.params)
      .map((p) => ({
        request: p.retry,
        problem: `${describeRequest(p.retry)} sent requestState ${JSON.stringify(p.retry.params.requestState)}`,
      }));
    return judgeRequests(
      retried.length,
      noRetry(ctx),
      offenders,
      `none of ${retried.length} such retries carries a requestState`,
      'no requestState field in the retry',
    );
  },
});

export const FULFILL_BEFORE_RETRY = clientCheck({
  id: 'mrtr.client.fulfill-before-retry',
  title: 'The retry answers every input request, under its key',
  area: 'mrtr',
  scenario: 'mrtr',
  sentences: [
    sentence(
      CLIENT_REQUIREMENTS,
      'If a client receives an InputRequiredResult that contains the inputRequests field, the client MUST ' +
        'construct the requested inputs before retrying the original request.',
      'MUST',
    ),
  ],
  run(ctx) {
    const { all, retried } = pairs(ctx, (irr) => isObject(irr.inputRequests));
    if (all.length === 0) return [skip(askSkip(ctx, 'no input_required result with inputRequests was answered'))];
    const offenders = retried.flatMap((p) => {
      const asked = Object.keys(p.irr.inputRequests as Record<string, unknown>);
      const given = isObject(p.retry.params.inputResponses) ? p.retry.params.inputResponses : {};
      const missing = asked.filter((key) => !(key in given));
      return missing.length === 0
        ? []
        : [
            {
              request: p.retry,
              problem:
                `${describeRequest(p.retry)} has no input response for ` +
                `${missing.map((k) => JSON.stringify(k)).join(', ')}`,
            },
          ];
    });
    return judgeRequests(
      retried.length,
      noRetry(ctx),
      offenders,
      `all ${retried.length} retries answer every key asked`,
      'inputResponses with a key for each key of inputRequests',
    );
  },
});

export const RETRY_ORIGINAL = clientCheck({
  id: 'mrtr.client.retry-original',
  title: 'The retry repeats the original tool name and arguments',
  area: 'mrtr',
  scenario: 'mrtr',
  sentences: [
    sentence(
      'basic/patterns/mrtr#multi-round-trip-requests',
      'Client gathers the requested information from the user or other sources, then retries the original ' +
        'request including the additional requested information.',
      'descriptive',
    ),
  ],
  run(ctx) {
    const { retried } = pairs(ctx, () => true);
    const offenders = retried
      .filter((p) => canonicalJson(p.retry.params.arguments ?? {}) !== canonicalJson(p.original.params.arguments ?? {}))
      .map((p) => ({
        request: p.retry,
        problem:
          `${describeRequest(p.retry)} sent arguments ${JSON.stringify(p.retry.params.arguments)}, the ` +
          `original ${JSON.stringify(p.original.params.arguments)}`,
      }));
    const outcomes = judgeRequests(
      retried.length,
      noRetry(ctx),
      offenders,
      `all ${retried.length} retries repeat the original arguments`,
      'the same name and arguments as the original request (descriptive text: a deviation warns)',
    );
    for (const o of outcomes)
      if (o.evidence && offenders[0])
        o.evidence.unshift(evidenceOf(retried.find((p) => p.retry === offenders[0]!.request)!.original.seen));
    return outcomes;
  },
});

export const NO_CROSS_USE = clientCheck({
  id: 'mrtr.client.no-cross-use',
  title: 'A requestState goes only into the retry of the request it was issued for',
  area: 'mrtr',
  scenario: 'mrtr',
  sentences: [
    sentence(
      CLIENT_REQUIREMENTS,
      'They MUST NOT be used for any other request that the client may be sending in parallel.',
      'MUST NOT',
    ),
  ],
  run(ctx) {
    const issued = retries(ctx).flatMap((p) =>
      typeof p.irr.requestState === 'string' ? [{ ...p, state: p.irr.requestState }] : [],
    );
    if (issued.length === 0) return [skip('no input_required result with a requestState was answered')];
    const offenders = ctx.requests.flatMap((request) => {
      const state = request.params.requestState;
      const owner = issued.find((p) => p.state === state);
      // Only the retry (the next call of the same tool) may carry it.
      if (
        !owner ||
        (request.method === 'tools/call' &&
          request.params.name === owner.original.params.name &&
          request.seen.seq > owner.original.seen.seq)
      )
        return [];
      return [
        {
          request,
          problem: `${describeRequest(request)} carries the requestState issued for ${describeRequest(owner.original)}`,
        },
      ];
    });
    return judgeRequests(
      ctx.requests.length,
      '',
      offenders,
      `no other request of ${ctx.requests.length} carried one of the ${issued.length} requestState(s) issued`,
      'requestState only in the retry of the request that received it',
    );
  },
});

export const MRTR_CHECKS: readonly ClientCheckDefinition[] = [
  RETRY_NEW_ID,
  ECHO_REQUEST_STATE,
  NO_SPURIOUS_STATE,
  FULFILL_BEFORE_RETRY,
  RETRY_ORIGINAL,
  NO_CROSS_USE,
];
