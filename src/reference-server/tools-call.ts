import { isObject } from '../jsonrpc.js';
import { invalidParams } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';
import { serverInfoMeta } from './result-meta.js';
import type { ServerState } from './server-state.js';
import { toolError } from './tool-types.js';
import { findTool } from './tools.js';

export interface ToolCallParams {
  name: string;
  arguments: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** Checks tools/call params against CallToolRequestParams; throws -32602 when malformed. */
export function readToolCallParams(params: Record<string, unknown>): ToolCallParams {
  const { name, arguments: args, inputResponses, requestState } = params;
  if (typeof name !== 'string') throw invalidParams('Invalid params: tools/call needs a string "name"');
  if (args !== undefined && !isObject(args)) throw invalidParams('Invalid params: "arguments" must be an object');
  if (inputResponses !== undefined && !isObject(inputResponses)) {
    throw invalidParams('Invalid params: "inputResponses" must be an object');
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalidParams('Invalid params: "requestState" must be a string');
  }
  return { name, arguments: args ?? {}, inputResponses, requestState };
}

export function toolsCallResult(
  params: Record<string, unknown>,
  meta: RequestMeta,
  state: ServerState,
): Record<string, unknown> {
  const call = readToolCallParams(params);
  const tool = findTool(call.name);
  if (!tool) throw invalidParams(`Unknown tool: ${call.name}`);
  const problem = tool.checkInput(call.arguments);
  const outcome = problem
    ? toolError(problem)
    : tool.run({ ...call, clientCapabilities: meta.clientCapabilities, state });
  return { ...outcome, _meta: serverInfoMeta() };
}
