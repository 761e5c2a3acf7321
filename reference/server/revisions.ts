import { isInitializeRevision, type InitializeRevision } from '../../src/core/revision.js';

/** The server can be started as every revision there is: 2026-07-28 (the default) or an initialize one. */
export {
  isInitializeRevision,
  isRevision,
  REVISIONS,
  type InitializeRevision,
  type Revision,
} from '../../src/core/revision.js';

/** What one initialize revision's pages and schema.json say, as far as this server's answers depend on it. */
export interface RevisionRules {
  /**
   * JSON-RPC batches are received: 2025-03-26 basic/index § Batching ("MCP implementations MAY support sending JSON-RPC
   * batches, but MUST support receiving JSON-RPC batches."). 2024-11-05 has none, 2025-06-18 removed them.
   */
  batches: boolean;
  /** Its HTTP transport: the deprecated HTTP+SSE in 2024-11-05, Streamable HTTP from 2025-03-26 on. */
  http: 'http+sse' | 'streamable';
  /** Streamable HTTP § Protocol Version Header: the client sends MCP-Protocol-Version (2025-06-18 on). */
  protocolVersionHeader: boolean;
  /** The properties schema.json gives a Tool (spec-schema.test.ts compares them with the revision's schema.json). */
  toolFields: readonly string[];
  /** The properties schema.json gives a CallToolResult. */
  callResultFields: readonly string[];
  /** Content blocks have a `_meta` property (2025-06-18 on). */
  contentMeta: boolean;
  /**
   * server/tools § Error Handling: arguments that break the inputSchema are a protocol error ("Invalid arguments")
   * before 2025-11-25, and a tool execution error ("Input validation errors") from 2025-11-25 on.
   */
  invalidArguments: 'protocol-error' | 'tool-error';
}

const TOOL_2024 = ['name', 'description', 'inputSchema'];
const TOOL_2025_03 = [...TOOL_2024, 'annotations'];
const TOOL_2025_06 = [...TOOL_2025_03, 'title', 'outputSchema', '_meta'];
const CALL_RESULT_2024 = ['_meta', 'content', 'isError'];
const CALL_RESULT_2025_06 = [...CALL_RESULT_2024, 'structuredContent'];

export const REVISION_RULES: Readonly<Record<InitializeRevision, RevisionRules>> = {
  '2025-11-25': {
    batches: false,
    http: 'streamable',
    protocolVersionHeader: true,
    toolFields: [...TOOL_2025_06, 'icons', 'execution'],
    callResultFields: CALL_RESULT_2025_06,
    contentMeta: true,
    invalidArguments: 'tool-error',
  },
  '2025-06-18': {
    batches: false,
    http: 'streamable',
    protocolVersionHeader: true,
    toolFields: TOOL_2025_06,
    callResultFields: CALL_RESULT_2025_06,
    contentMeta: true,
    invalidArguments: 'protocol-error',
  },
  '2025-03-26': {
    batches: true,
    http: 'streamable',
    protocolVersionHeader: false,
    toolFields: TOOL_2025_03,
    callResultFields: CALL_RESULT_2024,
    contentMeta: false,
    invalidArguments: 'protocol-error',
  },
  '2024-11-05': {
    batches: false,
    http: 'http+sse',
    protocolVersionHeader: false,
    toolFields: TOOL_2024,
    callResultFields: CALL_RESULT_2024,
    contentMeta: false,
    invalidArguments: 'protocol-error',
  },
};

/**
 * The version an initialize is answered with (basic/lifecycle § Version Negotiation of every initialize revision): the
 * one offered when this server supports it (its own revision or an older initialize one), else its own, the latest.
 */
export function agreedRevision(own: InitializeRevision, offered: unknown): InitializeRevision {
  return isInitializeRevision(offered) && offered <= own ? offered : own;
}

/** Whether arguments that break the inputSchema are answered with a JSON-RPC error on this revision. */
export function invalidArgumentsAreProtocolErrors(revision: string): boolean {
  return isInitializeRevision(revision) && REVISION_RULES[revision].invalidArguments === 'protocol-error';
}
