import { isObject } from '../../src/core/jsonrpc.js';
import { SERVER_INFO } from './constants.js';
import { META_SERVER_INFO } from '../../src/core/meta-keys.js';
import { methodNotFound } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';
import { agreedRevision, REVISION_RULES, type InitializeRevision, type RevisionRules } from './revisions.js';

/** Methods of 2026-07-28 that the initialize revisions do not have. */
const MODERN_ONLY_METHODS = new Set(['server/discover', 'subscriptions/listen']);
/**
 * Tools that need 2026-07-28: list_items answers with an array as structuredContent (the initialize revisions have it
 * an object), and confirm_action completes through multi round-trip requests (input_required). A session neither
 * lists nor serves them.
 */
const MODERN_ONLY_TOOLS = new Set(['list_items', 'confirm_action']);
/** Result fields of 2026-07-28 that the initialize revisions do not have. */
const MODERN_ONLY_RESULT_FIELDS = ['resultType', 'ttlMs', 'cacheScope'];

/**
 * One session of an `initialize` revision (--protocol-version): over stdio the process, over Streamable HTTP the
 * Mcp-Session-Id. The server speaks `own` and every older initialize revision; `initialize` agrees one of them, and
 * every answer of the session is shaped to that revision's schema.json. The client's capabilities come from its
 * initialize request, requests carry no per-request `_meta`, and server/discover is an unknown method, so a client
 * that probes with it falls back to initialize.
 */
export class InitializeSession {
  /** The revision initialize agreed; the server's own until then. */
  revision: InitializeRevision;
  /** Whether the session has sent its client a request before answering a tools/list (it asks once). */
  askedBeforeListing = false;
  /** Whether the session has answered a tools/list. */
  answeredListing = false;
  private clientCapabilities: Record<string, unknown> = {};

  constructor(readonly own: InitializeRevision) {
    this.revision = own;
  }

  get rules(): RevisionRules {
    return REVISION_RULES[this.revision];
  }

  /**
   * The result of a request only the session answers (initialize, ping); undefined for the tool methods. Throws -32601
   * for a 2026-07-28 method.
   */
  answer(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
    if (MODERN_ONLY_METHODS.has(method)) throw methodNotFound(`Method not found: ${method}`);
    if (method === 'ping') return {};
    if (method !== 'initialize') return undefined;
    this.revision = agreedRevision(this.own, params.protocolVersion);
    this.clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    return {
      protocolVersion: this.revision,
      capabilities: { tools: {} },
      serverInfo: { ...SERVER_INFO },
    };
  }

  /** Whether the tool exists on the initialize revisions. */
  serves(tool: string): boolean {
    return !MODERN_ONLY_TOOLS.has(tool);
  }

  /** What a tool method needs to know of the request: the session's revision and capabilities, and a progress token. */
  meta(params: Record<string, unknown>): RequestMeta {
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    return {
      protocolVersion: this.revision,
      clientCapabilities: this.clientCapabilities,
      ...(typeof token === 'string' || Number.isInteger(token) ? { progressToken: token as string | number } : {}),
    };
  }

  /**
   * A result as the session's revision has it: without what 2026-07-28 added (resultType, the cache hints, the `_meta`
   * serverInfo), and with tools and tool results holding only the properties the revision's schema.json defines.
   */
  shape(method: string, result: Record<string, unknown>): Record<string, unknown> {
    const shaped = withoutModernFields(result);
    const { rules } = this;
    if (method === 'tools/list' && Array.isArray(shaped.tools)) {
      shaped.tools = shaped.tools.map((tool: unknown) => (isObject(tool) ? pick(tool, rules.toolFields) : tool));
    }
    if (method === 'tools/call' && Array.isArray(shaped.content)) {
      const call = pick(shaped, rules.callResultFields);
      if (!rules.contentMeta)
        call.content = shaped.content.map((block: unknown) => (isObject(block) ? omit(block, '_meta') : block));
      return call;
    }
    return shaped;
  }
}

function withoutModernFields(result: Record<string, unknown>): Record<string, unknown> {
  const shaped = omit(result, ...MODERN_ONLY_RESULT_FIELDS);
  if (isObject(shaped._meta)) {
    const rest = omit(shaped._meta, META_SERVER_INFO);
    if (Object.keys(rest).length > 0) shaped._meta = rest;
    else delete shaped._meta;
  }
  return shaped;
}

function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => keys.includes(key)));
}

function omit(value: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}
