import { type ClientCheckDefinition, isObject, INITIALIZE_REVISIONS, type SeenRequest } from '../kit/index.js';
import { onRevisions } from '../kit/same-sentences.js';
import { clientCheck, describeRequest, judgeRequests, reusedWhileInFlight, sentence } from './kit.js';

const FLOW = 'basic/patterns/progress#progress-flow';
const EARLIER_FLOW = 'basic/utilities/progress#progress-flow';
const withToken = (requests: readonly SeenRequest[]) =>
  requests.flatMap((request) => {
    const meta = isObject(request.params._meta) ? request.params._meta : undefined;
    return meta && 'progressToken' in meta ? [{ request, token: meta.progressToken }] : [];
  });
const none = 'the client asked for progress on no request (no _meta.progressToken)';

export const TOKEN_TYPE = clientCheck({
  id: 'progress.token-type',
  title: 'Progress tokens are strings or integers',
  area: 'progress',
  scenario: 'meta',
  sentences: [sentence(FLOW, 'Progress tokens MUST be a string or integer value', 'MUST')],
  earlier: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(EARLIER_FLOW, 'Progress tokens MUST be a string or integer value', 'MUST'),
  ),
  run(ctx) {
    const tokens = withToken(ctx.requests);
    const offenders = tokens
      .filter((t) => typeof t.token !== 'string' && !Number.isInteger(t.token))
      .map((t) => ({
        request: t.request,
        problem: `${describeRequest(t.request)} has progressToken ${JSON.stringify(t.token)}`,
      }));
    return judgeRequests(
      tokens.length,
      none,
      offenders,
      `all ${tokens.length} progress tokens are strings or integers`,
      'a string or an integer progressToken',
    );
  },
});

export const TOKEN_UNIQUE = clientCheck({
  id: 'progress.token-unique',
  title: 'No progress token is shared by two active requests',
  area: 'progress',
  scenario: 'meta',
  sentences: [
    sentence(
      FLOW,
      'Progress tokens can be chosen by the client using any means, but MUST be unique across all active requests.',
      'MUST',
    ),
  ],
  earlier: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(
      EARLIER_FLOW,
      'Progress tokens can be chosen by the sender using any means, but MUST be unique across all active requests.',
      'MUST',
    ),
  ),
  run(ctx) {
    const tokens = withToken(ctx.requests);
    const offenders = reusedWhileInFlight(
      tokens,
      (t) => t.request,
      (t) => t.token,
    ).map(({ item: t, earlier: active }) => ({
      request: t.request,
      problem:
        `${describeRequest(t.request)} reuses progressToken ${JSON.stringify(t.token)} of ` +
        `${describeRequest(active.request)}, still unanswered`,
    }));
    return judgeRequests(
      tokens.length,
      none,
      offenders,
      `no token of ${tokens.length} was shared by two active requests`,
      'a progressToken no other unanswered request carries',
    );
  },
});

export const PROGRESS_CHECKS: readonly ClientCheckDefinition[] = [TOKEN_TYPE, TOKEN_UNIQUE];
