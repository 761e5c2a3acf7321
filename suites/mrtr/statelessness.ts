import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, errorOf, isObject, resultOf } from '../kit/index.js';
import { answerInputRequests, CAPABILITIES, conversations } from './mrtr.js';
import { fail, pass, skip } from '../kit/outcome.js';

const describeAnswer = (response: unknown): string => {
  const error = errorOf(response);
  if (error) return `error ${String(error.code)}`;
  const result = resultOf(response);
  return result ? `a ${String(result.resultType ?? 'complete')} result` : 'no answer';
};

export const noPriorContext: CheckDefinition = defineCheck({
  id: 'state.no-prior-context',
  covers: ['st.caps.no-inference'],
  title:
    'Each request is served by its own _meta: capabilities declared by an earlier request on the connection ' +
    'are not carried over',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#statelessness',
        text:
          'Servers MUST NOT rely on prior requests over the same connection to establish context (e.g., ' +
          'capabilities, protocol version, client identity).',
        keyword: 'MUST NOT',
      },
      {
        ref: 'schema.json#/$defs/RequestMetaObject/properties/io.modelcontextprotocol~1clientCapabilities/description',
        text: 'Servers MUST NOT infer capabilities from prior requests.',
        keyword: 'MUST NOT',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'final',
  async run(ctx) {
    const refusedFirst = (await conversations(ctx)).find(
      (c) => c.refused && c.rounds.some((r) => r.result?.resultType === 'input_required'),
    );
    if (!refusedFirst) {
      return [
        skip(
          'no tool was refused with -32021 without client capabilities and then asked for input with them: ' +
            'nothing shows which capabilities a request relied on',
        ),
      ];
    }
    const declaring = refusedFirst.rounds.find((r) => r.result?.resultType === 'input_required')!.exchange;
    const params =
      isObject(refusedFirst.refused!.request) && isObject(refusedFirst.refused!.request.params)
        ? refusedFirst.refused!.request.params
        : {};
    // On the connection of the request that declared the capabilities: that connection's context is what is probed.
    const again = await ctx.callTool(refusedFirst.tool, params.arguments, { anyConnection: false });
    const result = resultOf(again.response);
    const inputRequests =
      result?.resultType === 'input_required' && isObject(result.inputRequests)
        ? Object.keys(result.inputRequests)
        : [];
    if (inputRequests.length === 0) {
      return [
        pass(
          `${refusedFirst.tool} without client capabilities, after a request that declared them: ` +
            `${describeAnswer(again.response)}, as before (${describeAnswer(refusedFirst.refused!.response)})`,
          [again],
        ),
      ];
    }
    return [
      fail(
        `${refusedFirst.tool} declaring clientCapabilities {} got input requests (${inputRequests.join(', ')}) ` +
          `after an earlier request on the connection declared them; the same call was refused with ` +
          `${describeAnswer(refusedFirst.refused!.response)} before`,
        'the same answer as to the first capability-less call: each request is handled by the capabilities in ' +
          'its own _meta',
        [refusedFirst.refused!, declaring, again],
      ),
    ];
  },
});

export const noConnectionAffinity: CheckDefinition = defineCheck({
  id: 'state.no-connection-affinity',
  title: 'An MRTR retry succeeds on another connection than the request that asked for input',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#statelessness',
        text:
          'Servers SHOULD NOT require that a client reuse the same connection or process to perform related ' +
          'operations.',
        keyword: 'SHOULD NOT',
      },
    ],
  },
  // Over stdio another connection is another server process, which may rightly not know the first one's state.
  needs: ['live', 'tool-call', 'http'],
  phase: 'final',
  async run(ctx) {
    if (!ctx.canOpenConnections) return [skip('cannot open another connection to this target')];
    const completed = (await conversations(ctx)).find((c) => c.outcome === 'complete' && c.rounds.length >= 2);
    if (!completed)
      return [
        skip('no MRTR conversation of the audit completed on one connection, so there is nothing to repeat across two'),
      ];
    const args = (completed.rounds[0]!.params as { arguments?: unknown }).arguments;
    const asked = await ctx.client.request(
      'tools/call',
      { name: completed.tool, arguments: args },
      { capabilities: CAPABILITIES, probe: true },
    );
    const result = resultOf(asked.response);
    if (result?.resultType !== 'input_required' || typeof result.requestState !== 'string') {
      return [
        skip(
          `${completed.tool} did not ask for input this time (${describeAnswer(asked.response)}), so no retry ` +
            `can be moved to another connection`,
        ),
      ];
    }
    const answers = answerInputRequests(isObject(result.inputRequests) ? result.inputRequests : {});
    if (!answers.ok) return [skip(answers.why)];
    const other = await ctx.anotherConnection();
    const params = {
      name: completed.tool,
      arguments: args,
      inputResponses: answers.responses,
      requestState: result.requestState,
    };
    const retried = await other.request('tools/call', params, { capabilities: CAPABILITIES, probe: true });
    const outcome = resultOf(retried.response);
    if (outcome && outcome.resultType !== 'input_required' && outcome.isError !== true) {
      return [
        pass(`${completed.tool}: the retry sent on another connection completed, as on the first one`, [
          asked,
          retried,
        ]),
      ];
    }
    return [
      fail(
        `${completed.tool}: the retry answering its input request completed on the connection that asked, but ` +
          `on another connection got ${describeAnswer(retried.response)}` +
          `${outcome?.isError === true ? ' (isError)' : ''}`,
        'the same completion on any connection: requestState and inputResponses carry everything the retry needs',
        [asked, retried],
      ),
    ];
  },
});

export const STATELESSNESS_CHECKS: readonly CheckDefinition[] = [noPriorContext, noConnectionAffinity];
