import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  errorOf,
  type Exchange,
  isObject,
  type Outcome,
  resultOf,
} from '../kit/index.js';
import { answerInputRequests, conversations, formOnlyAnswers, CAPABILITIES } from './mrtr.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { perToolOutcomes } from '../kit/per-tool-outcomes.js';

/** Tools whose input handling is probed: each costs at most 3 requests. */
const MAX_TOOLS = 2;
/** The inputResponses key nobody asked for. */
export const UNREQUESTED_KEY = 'mcp-tools-conformance-unrequested';
/** What replaces inputResponses to probe its validation: not an InputResponses object. */
const NOT_INPUT_RESPONSES = 'not an InputResponses object';

/**
 * How a server answered: a JSON-RPC error, a result with isError, input_required, another result, or nothing we can
 * read.
 */
export function answerKind(exchange: Exchange): {
  kind: 'error' | 'tool-error' | 'input-required' | 'result' | 'none';
  why: string;
} {
  const error = errorOf(exchange.response);
  if (error) return { kind: 'error', why: `error ${String(error.code)}: ${String(error.message)}` };
  const result = resultOf(exchange.response);
  if (!result)
    return {
      kind: 'none',
      why: exchange.failure
        ? `no answer (${exchange.failure.kind}: ${exchange.failure.message})`
        : 'no result and no error',
    };
  if (result.resultType === 'input_required') return { kind: 'input-required', why: 'input_required again' };
  if (result.isError === true) return { kind: 'tool-error', why: 'a result with isError: true' };
  return { kind: 'result', why: `a ${String(result.resultType ?? 'complete')} result` };
}

export interface InputProbe {
  tool: string;
  /**
   * The input_required result to the call declaring elicitation: {} whose fresh requestState the first retry echoes.
   */
  origin: Exchange;
  /** That state echoed, no inputResponses. */
  missing?: Exchange;
  /** The state of the answer to `missing` echoed, every input request answered, plus one key nobody asked for. */
  extra?: Exchange;
  /** What the conversation's genuine retry (every input answered, nothing extra) got. */
  genuine?: Exchange;
  /** The conversation's genuine retry with inputResponses replaced by a string. */
  malformed?: Exchange;
  why?: string;
}

const stateOf = (result: Record<string, unknown>) =>
  typeof result.requestState === 'string' ? { requestState: result.requestState } : {};

/**
 * For at most 2 tools: (1) the fresh input_required answer to the call declaring elicitation: {} (made by
 * elicit.server.modes) is retried echoing its requestState without inputResponses; (2) when that asks again, its new
 * state is echoed with every input request answered plus one unrequested key; (3) the conversation's genuine retry is
 * sent again with inputResponses replaced by a string (its state was echoed before: a server that allows a state once
 * rejects it whatever inputResponses holds, which passes). At most 6 requests.
 */
export function inputProbes(ctx: CheckContext): Promise<{ probes: InputProbe[]; why: string }> {
  return ctx.memo('mrtr-input-probes', async () => {
    const fresh = (await formOnlyAnswers(ctx)).filter(
      (a) => a.declared === '{}' && resultOf(a.exchange.response)?.resultType === 'input_required',
    );
    if (fresh.length === 0) return { probes: [], why: 'no call declaring elicitation: {} was answered input_required' };
    const all = await conversations(ctx);
    const capabilities = { elicitation: {} };
    const probes: InputProbe[] = [];
    for (const origin of fresh.slice(0, MAX_TOOLS)) {
      const probe: InputProbe = { tool: origin.tool, origin: origin.exchange };
      probes.push(probe);
      const first = resultOf(origin.exchange.response)!;
      if (typeof first.requestState !== 'string') {
        probe.why =
          'the input_required result carried no requestState, so a retry without inputResponses would be the ' +
          'original call again';
      } else {
        probe.missing = await ctx.client.request(
          'tools/call',
          { name: origin.tool, arguments: origin.args, ...stateOf(first) },
          { capabilities, probe: true },
        );
        const again = resultOf(probe.missing.response);
        if (
          again?.resultType === 'input_required' &&
          isObject(again.inputRequests) &&
          Object.keys(again.inputRequests).length > 0
        ) {
          const answers = answerInputRequests(again.inputRequests);
          if (answers.ok) {
            const inputResponses = {
              ...answers.responses,
              [UNREQUESTED_KEY]: { action: 'accept', content: { note: 'nobody asked for this' } },
            };
            probe.extra = await ctx.client.request(
              'tools/call',
              { name: origin.tool, arguments: origin.args, inputResponses, ...stateOf(again) },
              { capabilities, probe: true },
            );
          }
        }
      }
      const conversation = all.find((c) => c.tool === origin.tool);
      const genuine = conversation?.rounds.slice(1).find((r) => r.params.inputResponses !== undefined);
      if (genuine) {
        probe.genuine = genuine.exchange;
        probe.malformed = await ctx.client.request(
          'tools/call',
          { ...genuine.params, inputResponses: NOT_INPUT_RESPONSES },
          { capabilities: CAPABILITIES, probe: true },
        );
      }
    }
    return { probes, why: '' };
  });
}

export const reRequestMissing: CheckDefinition = defineCheck({
  id: 'mrtr.server.re-request',
  title:
    'A retry that echoes requestState but answers none of the input requests gets input_required again (or a ' +
    'result), not an error',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#error-handling',
        text:
          'If the client fails to send all the information requested in a previous InputRequests, and the ' +
          'missing information is necessary for the server to process the request, the server SHOULD respond ' +
          'with a new InputRequiredResult requesting the missing information again, rather than returning an ' +
          'error.',
        keyword: 'SHOULD',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    return perToolOutcomes(await inputProbes(ctx), (p): Outcome => {
      if (!p.missing) return skip(p.why ?? 'no retry was sent');
      const { kind, why: answer } = answerKind(p.missing);
      const evidence = [
        note('the retry echoes the requestState of the input_required result and sends no inputResponses'),
        p.origin,
        p.missing,
      ];
      if (kind === 'input-required')
        return pass('the retry without inputResponses was asked again (input_required)', evidence);
      if (kind === 'result')
        return pass(`the retry without inputResponses got ${answer}: the input was not necessary`, evidence);
      if (kind === 'none') return skip(`the retry without inputResponses got ${answer}`);
      return fail(
        `the retry that echoed requestState without answering the input requests got ${answer}`,
        'a new input_required result asking for the missing input again, rather than an error',
        evidence,
      );
    });
  },
});

export const ignoreExtraResponses: CheckDefinition = defineCheck({
  id: 'mrtr.server.ignore-extra',
  title: 'An inputResponses key the server did not ask for is ignored: the retry fares as one without it',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#error-handling',
        text:
          'If additional, unexpected parameters are provided in the InputResponses object, the server SHOULD ' +
          'ignore any information it does not recognize or need.',
        keyword: 'SHOULD',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    return perToolOutcomes(await inputProbes(ctx), (p): Outcome => {
      if (!p.extra)
        return skip(
          p.why ??
            'the retry without inputResponses was not asked again with input requests we can answer, so no ' +
              'fresh requestState was left to retry with',
        );
      const got = answerKind(p.extra);
      const baseline = p.genuine ? answerKind(p.genuine) : undefined;
      const evidence = [
        note(
          `every input request of the previous input_required result answered, plus "${UNREQUESTED_KEY}", ` +
            `which it did not ask for`,
        ),
        p.missing!,
        p.extra,
        ...(p.genuine ? [note('the same kind of retry without the extra key, earlier in the audit'), p.genuine] : []),
      ];
      if (got.kind === 'none') return skip(`the retry with an extra key got ${got.why}`);
      const failed = got.kind === 'error' || got.kind === 'tool-error';
      if (!failed) return pass(`the retry with an extra inputResponses key got ${got.why}`, evidence);
      if (baseline && (baseline.kind === 'error' || baseline.kind === 'tool-error')) {
        return skip(`the retry with an extra key got ${got.why}, but so did the retry without it (${baseline.why})`);
      }
      return fail(
        `the retry answering every input request plus an unrequested key "${UNREQUESTED_KEY}" got ${got.why}` +
          `${baseline ? `, where the retry without it got ${baseline.why}` : ''}`,
        'the unrequested key ignored: the same outcome as without it (a result, or input_required)',
        evidence,
      );
    });
  },
});

export const validateInputResponses: CheckDefinition = defineCheck({
  id: 'mrtr.server.validate-inputresponses',
  covers: ['mrtr.server.protocol-errors'],
  title: 'A retry whose inputResponses is not an InputResponses object (a string) gets a JSON-RPC error',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#error-handling',
        text:
          'Servers SHOULD validate that the data provided by the client is a valid InputResponses object and ' +
          'that the information inside can be correctly parsed.',
        keyword: 'SHOULD',
      },
      {
        ref: 'basic/patterns/mrtr#error-handling',
        text:
          'Protocol errors (malformed JSON, invalid schema, internal server errors) SHOULD return a JSON-RPC ' +
          'error response with an appropriate error code and message.',
        keyword: 'SHOULD',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    return perToolOutcomes(await inputProbes(ctx), (p): Outcome => {
      if (!p.malformed) return skip('the conversation had no retry carrying inputResponses to send again');
      const got = answerKind(p.malformed);
      const evidence = [
        note(`the conversation's retry sent again with inputResponses: ${JSON.stringify(NOT_INPUT_RESPONSES)}`),
        p.malformed,
      ];
      if (got.kind === 'error') return pass(`inputResponses that is a string got ${got.why}`, evidence);
      if (got.kind === 'none') return skip(`inputResponses that is a string got ${got.why}`);
      return fail(
        `inputResponses that is a string, not an InputResponses object, got ${got.why}`,
        'a JSON-RPC error (e.g. -32602 Invalid params): the data is not a valid InputResponses object',
        evidence,
      );
    });
  },
});

export const MRTR_RESPONSE_CHECKS = [reRequestMissing, ignoreExtraResponses, validateInputResponses] as const;
