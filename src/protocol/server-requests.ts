import type { JsonRpcId } from '../core/jsonrpc.js';
import { ERR } from './constants.js';

/**
 * The client capabilities the auditor declares in `initialize`: roots, without listChanged. Real hosts declare roots,
 * so a server that asks for them behaves as it does for its users; the list the auditor gives is empty, so nothing of
 * the machine it runs on is exposed. Neither sampling nor elicitation: there is no model and no user to ask.
 */
export const INITIALIZE_CLIENT_CAPABILITIES: Readonly<Record<string, Record<string, never>>> = { roots: {} };

/** The client capability a server-to-client request uses (2025-11-25 basic/lifecycle § Capability Negotiation). */
export const CLIENT_CAPABILITY_OF: Readonly<Record<string, string>> = {
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};

/** Requests of the server answered per connection: a flood of them is not answered without end. */
export const MAX_SERVER_REQUESTS_ANSWERED = 10_000;

/** The results the auditor gives: ping (either party may ping), and roots/list of the roots capability it declares. */
const RESULTS: Readonly<Record<string, Record<string, unknown>>> = { ping: {}, 'roots/list': { roots: [] } };

/**
 * The auditor's answer to a request of the server on the `initialize` wire: a result above, or -32601 for anything
 * else.
 */
export function answerServerRequest(id: JsonRpcId, method: string): Record<string, unknown> {
  if (Object.hasOwn(RESULTS, method)) return { jsonrpc: '2.0', id, result: RESULTS[method] };
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ERR.methodNotFound, message: `Method not found: ${method.slice(0, 200)}` },
  };
}
