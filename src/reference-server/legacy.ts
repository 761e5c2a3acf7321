import { isObject } from '../jsonrpc.js';
import { LEGACY_PROTOCOL_VERSION, META_SERVER_INFO, SERVER_INFO } from './constants.js';
import type { DefectSet } from './defects.js';
import type { OutgoingMessage } from './messages.js';
import { methodNotFound } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';

/** Methods of 2026-07-28 that the initialize wire does not have. */
const MODERN_ONLY_METHODS = new Set(['server/discover', 'subscriptions/listen']);
/**
 * Tools that need 2026-07-28: list_items answers with an array as structuredContent (2025-11-25 has it an object), and
 * confirm_action completes through multi round-trip requests (input_required). Legacy mode neither lists nor serves them.
 */
const MODERN_ONLY_TOOLS = new Set(['list_items', 'confirm_action']);
/** Result fields of 2026-07-28 that the initialize wire does not have. */
const MODERN_ONLY_RESULT_FIELDS = ['resultType', 'ttlMs', 'cacheScope'];

/** The legacy-sampling-unnegotiated defect's request: a client that declared no sampling is asked to sample. */
const SAMPLING_REQUEST: OutgoingMessage = {
  jsonrpc: '2.0',
  id: 'srv-sampling-1',
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the weather tools in one line.' } }], maxTokens: 100 },
};

/**
 * Legacy mode (--legacy): one session of the `initialize` wire (2025-11-25) over stdio, where one process is one
 * session. The client's capabilities come from its initialize request, requests carry no per-request `_meta`, and
 * server/discover is an unknown method, so a client that probes with it falls back to initialize.
 */
export class LegacySession {
  private clientCapabilities: Record<string, unknown> = {};
  private askedForSampling = false;

  /** The result of a request only the session answers (initialize, ping); undefined for the tool methods. Throws -32601 for a 2026-07-28 method. */
  answer(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
    if (MODERN_ONLY_METHODS.has(method)) throw methodNotFound(`Method not found: ${method}`);
    if (method === 'ping') return {};
    if (method !== 'initialize') return undefined;
    this.clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    return { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { ...SERVER_INFO } };
  }

  /** Whether the tool exists on the initialize wire. */
  serves(tool: string): boolean {
    return !MODERN_ONLY_TOOLS.has(tool);
  }

  /** What a tool method needs to know of the request: the session's version and capabilities, and a progress token. */
  meta(params: Record<string, unknown>): RequestMeta {
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    return {
      protocolVersion: LEGACY_PROTOCOL_VERSION,
      clientCapabilities: this.clientCapabilities,
      ...(typeof token === 'string' || Number.isInteger(token) ? { progressToken: token as string | number } : {}),
    };
  }

  /** The defect legacy-sampling-unnegotiated: the request to send the client before the first tools/list is answered. */
  requestBeforeListing(defects: DefectSet): OutgoingMessage | undefined {
    if (!defects.has('legacy-sampling-unnegotiated') || this.askedForSampling) return undefined;
    this.askedForSampling = true;
    return SAMPLING_REQUEST;
  }
}

/** A result as the initialize wire has it: without the fields and the `_meta` serverInfo that 2026-07-28 added. */
export function legacyResult(result: Record<string, unknown>): Record<string, unknown> {
  const legacy = { ...result };
  for (const field of MODERN_ONLY_RESULT_FIELDS) delete legacy[field];
  if (isObject(legacy._meta)) {
    const { [META_SERVER_INFO]: _serverInfo, ...rest } = legacy._meta;
    if (Object.keys(rest).length > 0) legacy._meta = rest;
    else delete legacy._meta;
  }
  return legacy;
}
