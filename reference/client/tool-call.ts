import { errorOf, isObject, resultOf, type JsonRpcId } from '../../src/core/jsonrpc.js';
import { CLIENT_INFO, MAX_MRTR_RETRIES, OTHER_PROTOCOL_VERSION } from './constants.js';
import type { Defects } from './defects/active.js';
import { answerInputRequests } from './input-responses.js';
import { errorLine, type CallLine } from './output-line.js';
import { validateStructuredContent } from './output-validation.js';
import { paramHeaders } from './param-headers.js';
import { requestMeta } from './request-meta.js';
import { listAllTools } from './tools-list.js';

/** HeaderMismatch before the 2026-07-28 renumbering (now -32020): a legacy code, with no meaning of its own now. */
const FORMER_HEADER_MISMATCH = -32001;
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

/** The MRTR fields of the next retry, and what the previous round's result said. */
interface Round {
  id: JsonRpcId | undefined;
  arguments: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  lastRequestState?: string;
}

/** What the calls of one run share: the progress tokens handed out, and (for a defect) the last requestState seen. */
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
  const original = initialArguments(tool);
  let round: Round = { id: first.id, arguments: original };
  if (defects.has('cross-uses-requeststate') && session.lastRequestState !== undefined)
    round.requestState = session.lastRequestState;
  let refreshed = false;
  for (let retry = 0; ; retry++) {
    const meta = requestMeta({ withCapabilities: true, withClientInfo: !defects.has('no-client-info') });
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
    if (error && error.code === FORMER_HEADER_MISMATCH && defects.has('legacy-code-as-header-mismatch') && !refreshed) {
      // The defect: the pre-renumbering HeaderMismatch code taken at its old meaning (re-list, then retry).
      refreshed = true;
      await listAllTools(rpc, defects);
      round = { id: undefined, arguments: original };
      continue;
    }
    if (error && error.code === HEADER_MISMATCH && !refreshed && !defects.has('no-header-mismatch-refresh')) {
      refreshed = true;
      if (defects.has('falls-back-on-400')) await probeInitialize(rpc);
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
      return completed(tool, result, defects);
    }
    if (resultType === 'complete') return completed(tool, result, defects);
    if (resultType !== 'input_required') {
      return defects.has('accepts-unknown-resulttype')
        ? { tool: tool.name, result }
        : errorLine(tool.name, `invalid resultType ${JSON.stringify(resultType)}`);
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
  previous: Round,
  previousId: JsonRpcId,
  original: Record<string, unknown>,
  defects: Defects,
): Round | { message: string } {
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && !isObject(inputRequests))
    return { message: 'input_required result with an invalid inputRequests' };
  if (requestState !== undefined && typeof requestState !== 'string') {
    return { message: 'input_required result with a requestState that is not a string' };
  }
  const round: Round = {
    id: defects.has('retry-same-id') ? previousId : undefined,
    arguments: defects.has('retry-changes-arguments') ? {} : original,
    lastRequestState: requestState ?? previous.lastRequestState,
  };
  if (inputRequests !== undefined) {
    const answered = answerInputRequests(inputRequests);
    if (!answered.ok) return { message: answered.message };
    round.inputResponses = defects.has('missing-input-response')
      ? firstEntryOnly(answered.responses)
      : answered.responses;
  }
  if (requestState !== undefined) {
    round.requestState = defects.has('requeststate-truncated') ? requestState.slice(0, -1) : requestState;
  } else if (defects.has('spurious-requeststate')) {
    round.requestState = previous.lastRequestState ?? 'state';
  }
  return round;
}

function firstEntryOnly(responses: Record<string, unknown>): Record<string, unknown> {
  const [first] = Object.entries(responses);
  return first ? { [first[0]]: first[1] } : {};
}

function completed(tool: CallableTool, result: Record<string, unknown>, defects: Defects): CallLine {
  const outputSchema = tool.definition.outputSchema;
  const validate = outputSchema !== undefined && Object.hasOwn(result, 'structuredContent') && result.isError !== true;
  if (validate) {
    const outcome = validateStructuredContent(outputSchema, result.structuredContent, {
      permissiveOnUnresolvedRef: defects.has('permissive-unresolved-ref'),
      skipInstanceCheck: defects.has('no-output-validation'),
      draft07ByDefault: defects.has('draft-07-by-default'),
      unknownDialectAs2020: defects.has('unknown-dialect-as-2020-12'),
    });
    if (!outcome.ok) return errorLine(tool.name, outcome.message);
  }
  return { tool: tool.name, result };
}

/** The `falls-back-on-400` defect: a 400 answer taken for a server of the initialize era, whatever its body said. */
async function probeInitialize(rpc: Rpc): Promise<void> {
  const params = { protocolVersion: OTHER_PROTOCOL_VERSION, capabilities: {}, clientInfo: { ...CLIENT_INFO } };
  await rpc.request('initialize', params).catch(() => undefined);
}
