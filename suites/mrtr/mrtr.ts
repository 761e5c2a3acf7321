import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  ERR,
  errorOf,
  type Exchange,
  isObject,
  type Outcome,
  resultOf,
  sampleArguments,
  type SpecSentence,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { validCalls } from '../tool-calls/tool-results.js';

const MAX_ROUNDS = 3;

export interface Round {
  /** The params we sent (without _meta), so that a later check can send the same retry with one thing changed. */
  params: Record<string, unknown>;
  exchange: Exchange;
  result?: Record<string, unknown>;
}

export interface Conversation {
  tool: string;
  args: Record<string, unknown>;
  /** The capability-less call that answered -32021, when there was one. */
  refused?: Exchange;
  rounds: Round[];
  outcome: 'complete' | 'still-input-required' | 'error' | 'unanswerable';
  why?: string;
}

/** Answers for each input request, as a client that declared the capabilities would give them. */
export function answerInputRequests(
  requests: Record<string, unknown>,
): { ok: true; responses: Record<string, unknown> } | { ok: false; why: string } {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (!isObject(request)) return { ok: false, why: `input request ${key} is not an object` };
    const params = isObject(request.params) ? request.params : {};
    switch (request.method) {
      case 'elicitation/create': {
        if (params.mode === 'url') {
          responses[key] = { action: 'decline' };
          break;
        }
        const content = sampleArguments(params.requestedSchema ?? { type: 'object' });
        responses[key] = content.ok ? { action: 'accept', content: content.value } : { action: 'decline' };
        break;
      }
      case 'sampling/createMessage':
        responses[key] = {
          role: 'assistant',
          content: { type: 'text', text: 'mcp-tools-conformance sample answer' },
          model: 'mcp-tools-conformance',
          stopReason: 'endTurn',
        };
        break;
      case 'roots/list':
        responses[key] = { roots: [] };
        break;
      default:
        return { ok: false, why: `cannot answer input request ${key} (${String(request.method)})` };
    }
  }
  return { ok: true, responses };
}

/** What the conversations declare: form-mode elicitation only (no URL mode), sampling and roots. */
export const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

/**
 * For every tool whose capability-less call answered -32021 or input_required: call again declaring the
 * capabilities, answer each input request, and retry with a NEW id echoing requestState, up to 3 rounds.
 */
export function conversations(ctx: CheckContext): Promise<Conversation[]> {
  return ctx.memo('mrtr-conversations', async () => {
    const out: Conversation[] = [];
    for (const call of (await validCalls(ctx)).calls) {
      const code = errorOf(call.exchange.response)?.code;
      const first = resultOf(call.exchange.response);
      if (code !== ERR.missingCapability && first?.resultType !== 'input_required') continue;
      const name = call.tool.tool.name as string;
      const conversation: Conversation = {
        tool: name,
        args: call.args,
        rounds: [],
        outcome: 'error',
        ...(code === ERR.missingCapability ? { refused: call.exchange } : {}),
      };
      let params: Record<string, unknown> = { name, arguments: call.args };
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const exchange = await ctx.client.request('tools/call', params, { capabilities: CAPABILITIES, probe: true });
        const result = resultOf(exchange.response);
        conversation.rounds.push({ params, exchange, ...(result ? { result } : {}) });
        if (!result) {
          conversation.outcome = 'error';
          conversation.why = errorOf(exchange.response)
            ? `error ${String(errorOf(exchange.response)!.code)}`
            : exchange.failure?.message;
          break;
        }
        if (result.resultType !== 'input_required') {
          conversation.outcome = 'complete';
          break;
        }
        const answers = answerInputRequests(isObject(result.inputRequests) ? result.inputRequests : {});
        if (!answers.ok) {
          conversation.outcome = 'unanswerable';
          conversation.why = answers.why;
          break;
        }
        params = {
          name,
          arguments: call.args,
          inputResponses: answers.responses,
          ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
        };
        conversation.outcome = 'still-input-required';
      }
      out.push(conversation);
    }
    return out;
  });
}

const idOf = (e: Exchange) => (e.request as { id?: unknown }).id;

export const retryCompletes: CheckDefinition = defineCheck({
  id: 'mrtr.retry.completes',
  covers: ['tools.call.may-input-required'],
  title:
    'A tools/call that answers input_required, retried (new id) with inputResponses and the echoed ' +
    'requestState, gets a result, as the pattern describes',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#multi-round-trip-requests',
        text:
          'Server determines it has sufficient information to complete the operation, and responds with the ' +
          'final result.',
        keyword: 'descriptive',
      },
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text:
          'Servers MAY choose to return an InputRequiredResult on multiple attempts at the same request if they ' +
          'want to repeatedly prompt the user for information until they have what they need to complete the ' +
          'request.',
        keyword: 'MAY',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const all = (await conversations(ctx)).filter((c) =>
      c.rounds.some((r) => r.result?.resultType === 'input_required'),
    );
    if (all.length === 0) return [skip('no called tool answered input_required')];
    return all.map((c): Outcome => {
      const ids = c.rounds.map((r) => JSON.stringify(idOf(r.exchange))).join(' → ');
      const evidence = [
        note(`request ids of the rounds (each retry is a new request): ${ids}`),
        ...c.rounds.map((r) => r.exchange),
      ];
      if (c.outcome === 'complete')
        return { ...pass(`completed after ${c.rounds.length} round(s); ids ${ids}`, evidence), tool: c.tool };
      if (c.outcome === 'unanswerable')
        return { ...skip(`the input requests cannot be answered by this tool: ${c.why}`), tool: c.tool };
      if (c.outcome === 'still-input-required') {
        // Our answers are synthetic, and servers MAY prompt again on every attempt: nothing to report beyond the
        // rounds.
        return {
          ...pass(
            `still input_required after ${MAX_ROUNDS} rounds, each answered (servers MAY return input_required ` +
              `on several attempts; our answers are synthetic); ids ${ids}`,
            evidence,
          ),
          tool: c.tool,
        };
      }
      return {
        ...fail(
          `the retry with inputResponses got ${c.why ?? 'no result'}`,
          'a result (complete, or input_required again) for a retry that answers every input request and ' +
            'echoes requestState, as the pattern describes: "responds with the final result"',
          evidence,
        ),
        tool: c.tool,
      };
    });
  },
});

export const inputRequiredNonEmpty: CheckDefinition = defineCheck({
  id: 'mrtr.irr.non-empty',
  title: 'Every input_required result carries inputRequests or requestState',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text:
          'Servers MUST include at least one of inputRequests or requestState in every InputRequiredResult ' +
          'response.',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'final',
  run(ctx) {
    const irr = ctx.exchanges().filter((e) => resultOf(e.response)?.resultType === 'input_required');
    if (irr.length === 0) return [skip('no input_required result was received')];
    const empty = irr.filter((e) => {
      const r = resultOf(e.response)!;
      return !isObject(r.inputRequests) && typeof r.requestState !== 'string';
    });
    if (empty.length === 0)
      return [pass(`${irr.length} input_required result(s), each with inputRequests or requestState`)];
    return [
      fail(
        `${empty.length} input_required result(s) carry neither inputRequests nor requestState`,
        'at least one of inputRequests and requestState',
        empty.slice(0, 3),
      ),
    ];
  },
});

const DECLARED_ONLY: SpecSentence = {
  ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
  text: 'Servers MUST NOT send an inputRequests that the client has not declared support for in its capabilities.',
  keyword: 'MUST NOT',
};

export const declaredCapabilitiesOnly: CheckDefinition = defineCheck({
  id: 'mrtr.irr.declared-only',
  covers: ['meta.caps.no-undeclared', 'mrtr.irr.no-elicit-undeclared'],
  title: 'No input request needs a capability the request did not declare',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      DECLARED_ONLY,
      {
        ref: 'basic/index#_meta',
        text: 'A server MUST NOT rely on capabilities the client has not declared.',
        keyword: 'MUST NOT',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const calls = (await validCalls(ctx)).calls;
    if (calls.length === 0) return [skip('no tool was called')];
    const offending = calls.filter((c) => {
      const r = resultOf(c.exchange.response);
      return r?.resultType === 'input_required' && isObject(r.inputRequests) && Object.keys(r.inputRequests).length > 0;
    });
    if (offending.length === 0)
      return [pass(`${calls.length} call(s) declaring no client capabilities got no input requests`)];
    return offending.map((c) => ({
      ...fail(
        `a call declaring clientCapabilities {} was answered with input requests (${Object.values(
          resultOf(c.exchange.response)!.inputRequests as Record<string, { method?: unknown }>,
        )
          .map((r) => String(r?.method))
          .join(', ')})`,
        'error -32021 listing the required capabilities, or a result that needs none',
        [c.exchange],
      ),
      tool: c.tool.label,
    }));
  },
});

export const missingCapabilityError: CheckDefinition = defineCheck({
  id: 'meta.caps.missing-32021',
  title: 'A -32021 error lists the missing capabilities in data.requiredCapabilities',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text:
          'If processing a request requires a capability the client did not include in ' +
          'io.modelcontextprotocol/clientCapabilities, the server MUST return a ' +
          'MissingRequiredClientCapabilityError (-32021) whose data.requiredCapabilities lists the missing ' +
          'capabilities.',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'final',
  run(ctx) {
    const errors = ctx.exchanges().filter((e) => errorOf(e.response)?.code === ERR.missingCapability);
    if (errors.length === 0) return [skip('no -32021 error was received')];
    const bad = errors.filter((e) => {
      const data = errorOf(e.response)!.data;
      return !(
        isObject(data) &&
        isObject(data.requiredCapabilities) &&
        Object.keys(data.requiredCapabilities).length > 0
      );
    });
    if (bad.length === 0) return [pass(`${errors.length} -32021 error(s), each listing data.requiredCapabilities`)];
    return [
      fail(
        `${bad.length} -32021 error(s) without a non-empty data.requiredCapabilities`,
        'data: {requiredCapabilities: {elicitation: {…}, …}}',
        bad.slice(0, 3),
      ),
    ];
  },
});

export const missingCapabilityStatus: CheckDefinition = defineCheck({
  id: 'meta.caps.missing-http-400',
  title: 'Over HTTP, -32021 comes with status 400',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text:
          'If processing a request requires a capability the client did not include in ' +
          'io.modelcontextprotocol/clientCapabilities, the server MUST return a ' +
          'MissingRequiredClientCapabilityError (-32021) … On HTTP, the response status MUST be 400 Bad Request.',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live', 'tool-call', 'http'],
  phase: 'final',
  run(ctx) {
    const errors = ctx.exchanges().filter((e) => errorOf(e.response)?.code === ERR.missingCapability);
    if (errors.length === 0) return [skip('no -32021 error was received')];
    const bad = errors.filter((e) => e.status !== 400);
    if (bad.length === 0) return [pass(`${errors.length} -32021 error(s) came with HTTP 400`)];
    return [
      fail(
        `-32021 came with ${bad.map((b) => `HTTP ${b.status}`).join(', ')}`,
        'HTTP status 400 Bad Request',
        bad.slice(0, 3),
      ),
    ];
  },
});

/** At most this many tools get the extra call declaring `elicitation: {}`. */
const MAX_EMPTY_ELICITATION_CALLS = 3;

export interface FormOnlyAnswer {
  /** The elicitation capability the call declared. */
  declared: string;
  tool: string;
  args: Record<string, unknown>;
  exchange: Exchange;
}

/** The keys of URL-mode elicitation input requests in an input_required result. */
export function urlModeRequests(result: Record<string, unknown> | undefined): string[] {
  if (result?.resultType !== 'input_required' || !isObject(result.inputRequests)) return [];
  return Object.entries(result.inputRequests)
    .filter(
      ([, r]) => isObject(r) && r.method === 'elicitation/create' && isObject(r.params) && r.params.mode === 'url',
    )
    .map(([key]) => key);
}

/**
 * Answers to calls that declared form-mode elicitation only: every round of the conversations
 * (`elicitation: {form: {}}`), and one more call per conversation tool (at most 3) declaring `elicitation: {}`, which
 * means form mode only.
 */
export function formOnlyAnswers(ctx: CheckContext): Promise<FormOnlyAnswer[]> {
  return ctx.memo('mrtr-form-only-answers', async () => {
    const all = await conversations(ctx);
    const out: FormOnlyAnswer[] = all.flatMap((c) =>
      c.rounds.map((r) => ({
        declared: JSON.stringify(CAPABILITIES.elicitation),
        tool: c.tool,
        args: c.args,
        exchange: r.exchange,
      })),
    );
    for (const c of all.filter((c) => c.rounds.length > 0).slice(0, MAX_EMPTY_ELICITATION_CALLS)) {
      const exchange = await ctx.client.request(
        'tools/call',
        { name: c.tool, arguments: c.args },
        { capabilities: { elicitation: {} }, probe: true },
      );
      out.push({ declared: '{}', tool: c.tool, args: c.args, exchange });
    }
    return out;
  });
}

export const elicitationModesDeclared: CheckDefinition = defineCheck({
  id: 'elicit.server.modes',
  covers: ['elicit.empty-is-form'],
  title:
    'A call declaring form-mode elicitation only (elicitation: {form: {}}, or {} which means form only) never ' +
    'gets a URL-mode elicitation input request',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [DECLARED_ONLY],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const answers = await formOnlyAnswers(ctx);
    const irr = answers.filter((a) => resultOf(a.exchange.response)?.resultType === 'input_required');
    if (irr.length === 0) return [skip('no call declaring form-mode elicitation was answered input_required')];
    const offending = irr
      .map((a) => ({ ...a, keys: urlModeRequests(resultOf(a.exchange.response)) }))
      .filter((a) => a.keys.length > 0);
    if (offending.length === 0) {
      const declared = [...new Set(irr.map((a) => `elicitation: ${a.declared}`))].join(' and ');
      return [
        pass(
          `${irr.length} input_required result(s) to calls declaring ${declared}, none with a URL-mode ` +
            `elicitation request`,
        ),
      ];
    }
    return offending.map((a) => ({
      ...fail(
        `a call declaring elicitation: ${a.declared}` +
          `${a.declared === '{}' ? ' (an empty object means form mode only)' : ''} got URL-mode elicitation ` +
          `input request(s) ${a.keys.join(', ')}`,
        'only form-mode elicitation requests (or other declared kinds): the client did not declare ' +
          'elicitation.url, and servers MUST NOT send elicitation requests with modes the client does not support',
        [note(`declared clientCapabilities.elicitation: ${a.declared}`), a.exchange],
      ),
      tool: a.tool,
    }));
  },
});

export const MRTR_CHECKS = [
  retryCompletes,
  inputRequiredNonEmpty,
  declaredCapabilitiesOnly,
  elicitationModesDeclared,
  missingCapabilityError,
  missingCapabilityStatus,
] as const;
