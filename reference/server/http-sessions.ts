import { randomUUID } from 'node:crypto';
import { isObject } from '../../src/core/jsonrpc.js';
import type { HeaderBag } from './http-headers.js';
import type { InitializeRevision } from './revisions.js';
import { InitializeSession } from './session.js';

/**
 * Where a request is served: in its session (`minted` when this initialize request opened it), or nowhere, with an HTTP
 * error.
 */
export type Routed = { session: InitializeSession; minted?: string } | { status: number; message: string };

/**
 * The sessions of Streamable HTTP for an initialize revision (basic/transports § Session Management, 2025-03-26 on):
 * an initialize request without Mcp-Session-Id opens one, whose id the response carries; every later request names
 * it. A request without one is answered 400 ("Servers that require a session ID SHOULD respond to requests without an
 * Mcp-Session-Id header (other than initialization) with HTTP 400 Bad Request"), an unknown or ended one 404 ("after
 * which it MUST respond to requests containing that session ID with HTTP 404 Not Found"), and a DELETE ends one.
 */
/** Sessions kept at most: the oldest is forgotten (and then answered 404, as an ended one) beyond that. */
const MAX_SESSIONS = 1000;

export class HttpSessions {
  private readonly sessions = new Map<string, InitializeSession>();

  /** `mintId` makes a session's id (a defect may give one that breaks the id's rules). */
  constructor(
    private readonly own: InitializeRevision,
    private readonly mintId: () => string = randomUUID,
  ) {}

  route(headers: HeaderBag, body: unknown): Routed {
    const id = sessionId(headers);
    if (id === undefined) {
      if (!isInitialize(body))
        return { status: 400, message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first)' };
      const minted = this.mintId();
      const session = new InitializeSession(this.own);
      this.sessions.set(minted, session);
      if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      return { session, minted };
    }
    const session = this.sessions.get(id);
    if (!session) return { status: 404, message: 'Not Found: no such session' };
    // Streamable HTTP § Protocol Version Header (2025-06-18 on): "If the server receives a request with an invalid or
    // unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request." The session's version is the one it
    // supports.
    const version = headers['mcp-protocol-version'];
    if (session.rules.protocolVersionHeader && version !== undefined && version !== session.revision) {
      return {
        status: 400,
        message:
          `Bad Request: MCP-Protocol-Version ${String(version)} is not the version this session agreed (` +
          `${session.revision})`,
      };
    }
    return { session };
  }

  /** A DELETE: the status it gets, 200 when it names a session, which it ends unless told to keep it. */
  end(headers: HeaderBag, endsSession: boolean): number {
    const id = sessionId(headers);
    if (id === undefined) return 400;
    if (!this.sessions.has(id)) return 404;
    if (endsSession) this.sessions.delete(id);
    return 200;
  }
}

function sessionId(headers: HeaderBag): string | undefined {
  const value = headers['mcp-session-id'];
  return Array.isArray(value) ? value[0] : value;
}

function isInitialize(body: unknown): boolean {
  return isObject(body) && body.method === 'initialize';
}
