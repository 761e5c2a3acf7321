import { isObject } from '../../src/core/jsonrpc.js';
import { NO_DEFECTS, type ActiveDefects } from './defects/active.js';
import type { DefectName } from './defects/index.js';
import { ErrorCode } from './constants.js';
import { invalidParams, ProtocolError } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';
import { invalidArgumentsAreProtocolErrors } from './revisions.js';
import { serverInfoMeta } from './result-meta.js';
import type { ServerState } from './server-state.js';
import { REGION_PATTERN } from './defects/conforming.js';
import { toolError } from './tool-types.js';
import { findSearchDefectTool } from './search-defects.js';
import { findTool } from './tools.js';
import { writeToolEffects } from './effect-defects.js';

export interface ToolCallParams {
  name: string;
  arguments: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** Checks tools/call params against CallToolRequestParams; throws -32602 when malformed. */
export function readToolCallParams(
  params: Record<string, unknown>,
  defects: ActiveDefects = NO_DEFECTS,
): ToolCallParams {
  const { name, requestState } = params;
  let { inputResponses } = params;
  if (inputResponses !== undefined && !isObject(inputResponses) && defects.has('input-responses-unvalidated'))
    inputResponses = undefined;
  let args = params.arguments;
  if (typeof name !== 'string') throw invalidParams('Invalid params: tools/call needs a string "name"');
  if (args !== undefined && !isObject(args) && defects.has('malformed-arguments-accepted')) args = {};
  if (args !== undefined && !isObject(args)) throw invalidParams('Invalid params: "arguments" must be an object');
  if (inputResponses !== undefined && !isObject(inputResponses)) {
    throw invalidParams('Invalid params: "inputResponses" must be an object');
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalidParams('Invalid params: "requestState" must be a string');
  }
  return { name, arguments: (args as Record<string, unknown> | undefined) ?? {}, inputResponses, requestState };
}

/** The region variants: search_docs's own validation refuses regions with -32602 (HTTP 400). */
function refuseRegion(region: unknown, defects: ActiveDefects): void {
  if (typeof region !== 'string') return;
  const refused =
    (defects.has('region-pattern') && !new RegExp(REGION_PATTERN).test(region)) ||
    (defects.has('region-refused') && region !== 'eu-central-1');
  if (refused) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: unknown region ${region}`, 400);
}

/** What an unknown tool gets: -32602 when clean; the defects answer it wrongly in one way each. */
function unknownTool(name: string, defects: ActiveDefects): Record<string, unknown> {
  if (defects.has('unknown-tool-is-error')) return { ...toolError(`Unknown tool: ${name}`) };
  for (const [defect, code] of UNKNOWN_TOOL_CODES) {
    if (defects.has(defect)) throw new ProtocolError(code, `Unknown tool: ${name}`, 200);
  }
  throw invalidParams(`Unknown tool: ${name}`);
}

const UNKNOWN_TOOL_CODES: readonly [DefectName, number][] = [
  ['unknown-tool-32002', -32002],
  ['unknown-tool-32050', -32050],
  ['unknown-tool-32001', -32001],
  ['unknown-tool-32020', -32020],
  ['unknown-tool-32500', -32500],
];

/** The audio-content-on-2024-11-05 defect's block: an 8-sample WAV chime. */
const CHIME_WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAABYqFioWKhYqA==';

/** Result defects: each breaks one rule about what a successful result carries. */
function resultDefects(name: string, result: Record<string, unknown>, defects: ActiveDefects): Record<string, unknown> {
  if (name === 'get_weather' && defects.has('structured-output-mismatch') && isObject(result.structuredContent)) {
    const structuredContent = {
      ...result.structuredContent,
      humidity: `${String(result.structuredContent.humidity)}%`,
    };
    return { ...result, structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] };
  }
  if (name === 'add_numbers' && defects.has('no-text-mirror') && isObject(result.structuredContent)) {
    return { ...result, content: [{ type: 'text', text: `The sum is ${String(result.structuredContent.sum)}.` }] };
  }
  if (
    name === 'get_time' &&
    defects.has('embedded-resource-undeclared') &&
    result.isError !== true &&
    Array.isArray(result.content)
  ) {
    const clock = { type: 'resource', resource: { uri: 'clock://utc', mimeType: 'text/plain', text: 'UTC' } };
    return { ...result, content: [...result.content, clock] };
  }
  if (name === 'get_time' && defects.has('task-result-unnegotiated') && result.isError !== true) {
    return { resultType: 'task', task: { taskId: 'task-1', status: 'working', createdAt: new Date(0).toISOString() } };
  }
  if (name === 'get_logo' && defects.has('audio-content-on-2024-11-05') && Array.isArray(result.content)) {
    return {
      ...result,
      content: [...result.content, { type: 'audio', data: CHIME_WAV_BASE64, mimeType: 'audio/wav' }],
    };
  }
  if (name === 'echo' && defects.has('meta-key-bad-label') && Array.isArray(result.content)) {
    return {
      ...result,
      content: result.content.map((block: unknown) =>
        isObject(block) ? { ...block, _meta: { 'com.example-/source': 'echo' } } : block,
      ),
    };
  }
  return result;
}

export function toolsCallResult(
  params: Record<string, unknown>,
  meta: RequestMeta,
  state: ServerState,
  defects: ActiveDefects = NO_DEFECTS,
  connection?: string,
): Record<string, unknown> {
  const call = readToolCallParams(params, defects);
  const tool = findTool(call.name, state.betaTools) ?? findSearchDefectTool(call.name, defects);
  if (!tool) return { ...unknownTool(call.name, defects), _meta: serverInfoMeta() };
  if (call.name === 'echo' && defects.has('valid-args-rejected')) throw invalidParams('Invalid params');
  if (call.name === 'search_docs') refuseRegion(call.arguments.region, defects);
  if (call.name === 'echo' && defects.has('coerces-any-type') && Object.hasOwn(call.arguments, 'text')) {
    call.arguments = { ...call.arguments, text: String(call.arguments.text) };
  }
  const skipValidation = call.name === 'get_time' && defects.has('invalid-args-succeed');
  const problem = skipValidation ? undefined : tool.checkInput(call.arguments);
  if (problem && invalidArgumentsAreProtocolErrors(meta.protocolVersion)) throw invalidParams(problem);
  const outcome = problem
    ? toolError(problem)
    : tool.run({
        ...call,
        clientCapabilities: meta.clientCapabilities,
        state,
        defects,
        ...(connection === undefined ? {} : { connection }),
      });
  if (!problem) writeToolEffects(call.name, call.arguments, defects);
  return { ...resultDefects(call.name, { ...outcome }, defects), _meta: serverInfoMeta() };
}
