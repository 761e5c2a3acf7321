import { isObject } from '../../src/core/jsonrpc.js';
import { NO_DEFECTS, type ActiveDefects } from './defects/active.js';
import type { CallParamsRules } from './defects/seams/calls.js';
import { ErrorCode } from './constants.js';
import { invalidParams, ProtocolError } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';
import { invalidArgumentsAreProtocolErrors } from './revisions.js';
import { serverInfoMeta } from './result-meta.js';
import type { ServerState } from './server-state.js';
import { toolError } from './tool-types.js';
import { findSearchDefectTool } from './defects/search-tools.js';
import { findTool } from './tools.js';

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
  const rules: CallParamsRules = { nonObjectArguments: 'refused', nonObjectInputResponses: 'refused' };
  defects.at.callParamsRules(rules);
  const { name, requestState } = params;
  let { inputResponses } = params;
  if (inputResponses !== undefined && !isObject(inputResponses) && rules.nonObjectInputResponses === 'absent')
    inputResponses = undefined;
  let args = params.arguments;
  if (typeof name !== 'string') throw invalidParams('Invalid params: tools/call needs a string "name"');
  if (args !== undefined && !isObject(args) && rules.nonObjectArguments === 'empty') args = {};
  if (args !== undefined && !isObject(args)) throw invalidParams('Invalid params: "arguments" must be an object');
  if (inputResponses !== undefined && !isObject(inputResponses)) {
    throw invalidParams('Invalid params: "inputResponses" must be an object');
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalidParams('Invalid params: "requestState" must be a string');
  }
  return { name, arguments: (args as Record<string, unknown> | undefined) ?? {}, inputResponses, requestState };
}

/** search_docs's own validation of a region: none, unless a defect refuses some (-32602, HTTP 400). */
function refuseRegion(region: unknown, defects: ActiveDefects): void {
  if (typeof region !== 'string') return;
  if (defects.at.refusesRegion(region) === true)
    throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: unknown region ${region}`, 400);
}

/** What an unknown tool gets: -32602, unless a defect answers it otherwise. */
function unknownTool(name: string, defects: ActiveDefects): Record<string, unknown> {
  const answer = defects.at.unknownTool(name);
  if (answer instanceof ProtocolError) throw answer;
  if (answer) return answer;
  throw invalidParams(`Unknown tool: ${name}`);
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
  const args = defects.at.callArguments(call.name, call.arguments);
  if (args instanceof ProtocolError) throw args;
  if (args) call.arguments = args;
  if (call.name === 'search_docs') refuseRegion(call.arguments.region, defects);
  const skipsCheck = defects.at.skipsInputCheck(call.name, call.arguments) === true;
  const problem = skipsCheck ? undefined : tool.checkInput(call.arguments);
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
  if (!problem) defects.at.toolRan(call.name, call.arguments);
  const result = { ...outcome };
  return { ...(defects.at.toolResult(call.name, result) ?? result), _meta: serverInfoMeta() };
}
