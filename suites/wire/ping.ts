import { defineCheck } from '../kit/define-check.js';
import { onRevisions } from '../kit/same-sentences.js';
import { type CheckDefinition, errorOf, INITIALIZE_REVISIONS, isObject, resultOf } from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';

const EXPECTED = 'a result that is an empty object ({}, a _meta member at most)';

/** ping, a utility of the initialize revisions (2026-07-28 removed it): the receiver answers with an empty result. */
export const pingAnswered: CheckDefinition = defineCheck({
  id: 'base.ping.respond',
  covers: ['base.must-support-core'],
  title: 'A ping request is answered with an empty result',
  area: 'wire',
  sentences: onRevisions(INITIALIZE_REVISIONS, {
    ref: 'basic/utilities/ping#behavior-requirements',
    text: 'The receiver MUST respond promptly with an empty response',
    keyword: 'MUST',
  }),
  needs: ['live'],
  async run(ctx) {
    const exchange = await ctx.client.request('ping', {});
    const error = errorOf(exchange.response);
    if (error) return [fail(`ping was answered with error ${String(error.code)}`, EXPECTED, [exchange])];
    const response = exchange.response;
    if (!isObject(response) || !('result' in response)) {
      // No answer within --timeout is our setting's doing ("promptly" names no bound); a broken answer is
      // base.jsonrpc's to judge.
      return [skip(`ping got no usable answer (${exchange.failure?.message ?? 'none'}): nothing to judge`)];
    }
    const result = resultOf(response);
    const members = result ? Object.keys(result).filter((key) => key !== '_meta') : undefined;
    if (members?.length === 0) return [pass('ping was answered with an empty result', [exchange])];
    const got = members
      ? `a result with ${members.map((m) => JSON.stringify(m)).join(', ')}`
      : `the result ${JSON.stringify(response.result).slice(0, 80)}, not an object`;
    return [fail(`ping was answered with ${got}`, EXPECTED, [exchange])];
  },
});
