import { errorOf, isObject, resultOf, type JsonRpcId } from '../../src/core/jsonrpc.js';
import { MAX_MRTR_RETRIES } from './constants.js';
import type { Defects } from './defects/active.js';
import type { CallRound, CallRules } from './defects/seams/calls.js';
import { answerInputRequests } from './input-responses.js';
import { errorLine, type CallLine } from './output-line.js';
import { CONFORMING_VALIDATION, validateStructuredContent } from './output-validation.js';
import { paramHeaders } from './param-headers.js';
import { requestMeta } from './request-meta.js';
import { listAllTools } from './tools-list.js';

/** HeaderMismatch: list the tools again (the inputSchema may have changed), then retry with the headers it asks for. */
const HEADER_MISMATCH = -32020;
import type { Rpc } from './rpc.js';
import type { CallableTool } from './tool-admission.js';

/** The arguments a generic client can offer: the input schema's first example when it is an object. */
export function initialArguments(tool: CallableTool): Record<string, unknown> {
  const schema = tool.definition.inputSchema;
  const example = isObject(schema) && Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  return isObject(example) ? example : {};
}

/** What the calls of one run share: the progress tokens handed out, and the last requestState a result issued. */
export class CallSession {
  private token = 0;
  lastRequestState: string | undefined;

  /** A progressToken no active request has (each request gets its own). */
  nextProgressToken(): number {
    return ++this.token;
  }
}

export interface FirstRequest {
  id?: JsonRpcId;
  progressToken?: number;
}

/**
 * Calls one tool, answering `input_required` results (MRTR) and retrying with a new id, the same name and
 * arguments, `inputResponses` and the `requestState` echoed verbatim, up to MAX_MRTR_RETRIES times. Every request
 * asks for progress with a token of its own.
 */
export async function callTool(
  rpc: Rpc,
  tool: CallableTool,
  defects: Defects,
  session: CallSession,
  first: FirstRequest = {},
): Promise<CallLine> {
  const rules: CallRules = {
    refreshesOnHeaderMismatch: true,
    unknownResultTypeRefused: true,
    validation: { ...CONFORMING_VALIDATION },
  };
  defects.at.callRules(rules);
  const original = initialArguments(tool);
  let round: CallRound = { id: first.id, arguments: original };
  defects.at.firstRound(round, session.lastRequestState);
  let refreshed = false;
  for (let retry = 0; ; retry++) {
    const meta = requestMeta({ withCapabilities: true, withClientInfo: true });
    defects.at.callMeta(meta);
    meta.progressToken =
      retry === 0 && first.progressToken !== undefined ? first.progressToken : session.nextProgressToken();
    const params: Record<string, unknown> = { _meta: meta, name: tool.name, arguments: round.arguments };
    if (round.inputResponses !== undefined) params.inputResponses = round.inputResponses;
    if (round.requestState !== undefined) params.requestState = round.requestState;
    let answer;
    try {
      answer = await rpc.request('tools/call', params, {
        id: round.id,
        paramHeaders: rpc.kind === 'http' ? paramHeaders(tool.annotations, round.arguments, defects) : {},
      });
    } catch (error) {
      return errorLine(tool.name, error instanceof Error ? error.message : String(error));
    }
    const error = errorOf(answer.response);
    if (error && error.code !== HEADER_MISMATCH && !refreshed && defects.at.relistsAfterError(error.code)) {
      refreshed = true;
      await listAllTools(rpc, defects);
      round = { id: undefined, arguments: original };
      continue;
    }
    if (error && error.code === HEADER_MISMATCH && !refreshed && rules.refreshesOnHeaderMismatch) {
      refreshed = true;
      const aside = defects.at.requestBeforeRelisting();
      if (aside) await rpc.request(aside.method, aside.params).catch(() => undefined);
      const fresh = (await listAllTools(rpc, defects)).tools.find((t) => isObject(t) && t.name === tool.name);
      if (!fresh) return errorLine(tool.name, 'HeaderMismatch, and the tool is no longer listed');
      round = { id: undefined, arguments: original };
      continue;
    }
    if (error)
      return errorLine(
        tool.name,
        typeof error.message === 'string' ? error.message : 'error without a message',
        error.code,
      );
    const result = resultOf(answer.response);
    if (!result) return errorLine(tool.name, 'the response has neither a result object nor an error');

    const resultType = result.resultType;
    if (resultType === undefined) {
      return completed(tool, result, rules);
    }
    if (resultType === 'complete') return completed(tool, result, rules);
    if (resultType !== 'input_required') {
      return rules.unknownResultTypeRefused
        ? errorLine(tool.name, `invalid resultType ${JSON.stringify(resultType)}`)
        : { tool: tool.name, result };
    }
    if (typeof result.requestState === 'string') session.lastRequestState = result.requestState;
    if (retry === MAX_MRTR_RETRIES)
      return errorLine(tool.name, `still input_required after ${MAX_MRTR_RETRIES} retries`);
    const next = nextRound(result, round, answer.id, original, defects);
    if ('message' in next) return errorLine(tool.name, next.message);
    round = next;
  }
}

function nextRound(
  result: Record<string, unknown>,
  previous: CallRound,
  previousId: JsonRpcId,
  original: Record<string, unknown>,
  defects: Defects,
): CallRound | { message: string } {
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && !isObject(inputRequests))
    return { message: 'input_required result with an invalid inputRequests' };
  if (requestState !== undefined && typeof requestState !== 'string') {
    return { message: 'input_required result with a requestState that is not a string' };
  }
  const round: CallRound = {
    id: undefined,
    arguments: original,
    lastRequestState: requestState ?? previous.lastRequestState,
  };
  if (inputRequests !== undefined) {
    const answered = answerInputRequests(inputRequests);
    if (!answered.ok) return { message: answered.message };
    round.inputResponses = answered.responses;
  }
  if (requestState !== undefined) round.requestState = requestState;
  defects.at.retryRound(round, previousId);
  return round;
}

function completed(tool: CallableTool, result: Record<string, unknown>, rules: CallRules): CallLine {
  const outputSchema = tool.definition.outputSchema;
  const validate = outputSchema !== undefined && Object.hasOwn(result, 'structuredContent') && result.isError !== true;
  if (validate) {
    const outcome = validateStructuredContent(outputSchema, result.structuredContent, rules.validation);
    if (!outcome.ok) return errorLine(tool.name, outcome.message);
  }
  return { tool: tool.name, result };
}
