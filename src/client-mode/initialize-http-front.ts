import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject } from '../core/jsonrpc.js';
import type { SeenMessage } from '../model/client-observation.js';
import { compareRevisions } from '../core/revision.js';
import { META_PROTOCOL_VERSION } from '../core/meta-keys.js';
import { InitializeSession, type InitializeScriptedServer, type Sink } from './initialize-scripted-server.js';
import type { Recorder } from './recorder.js';

type Send = (status: number, body?: unknown, extraHeaders?: Record<string, string>) => void;

/** Sessions kept at most (the oldest is forgotten, and then answered 404 like an ended one). */
const MAX_SESSIONS = 100;

const SESSION_HEADER = 'mcp-session-id';

/**
 * Streamable HTTP of the initialize wire (basic/transports § Session Management, 2025-03-26 on): an `initialize`
 * without a session opens one (its id in `Mcp-Session-Id`); later requests name it (none: 400, an unknown or ended
 * one: 404); a GET opens the session's stream for what the server says on its own; a DELETE ends it. From 2025-06-18
 * a request whose `MCP-Protocol-Version` is not the session's gets 400 (a missing one is assumed to be 2025-03-26 and
 * answered; the client checks judge it). The session ends by itself after the last listed tool was answered (http
 * scenario), so that the client's next request meets a 404.
 */
export class InitializeHttpFront {
  private readonly sessions = new Map<string, InitializeSession>();

  constructor(
    private readonly server: InitializeScriptedServer,
    private readonly recorder: Recorder,
  ) {}

  /**
   * Whether this request is the initialize wire's: it names a session, opens one, or comes once one is open and carries
   * no 2026-07-28 `_meta`.
   */
  claims(method: string | undefined, headers: Record<string, string>, message: unknown): boolean {
    if (headers[SESSION_HEADER] !== undefined) return true;
    const messages = Array.isArray(message) ? message : [message];
    if (messages.some((m) => isObject(m) && m.method === 'initialize')) return true;
    if (this.sessions.size === 0) return false;
    if (method !== 'POST') return true;
    return !messages.some(
      (m) => isObject(m) && isObject(m.params) && isObject(m.params._meta) && META_PROTOCOL_VERSION in m.params._meta,
    );
  }

  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    entry: SeenMessage,
    headers: Record<string, string>,
    send: Send,
  ): Promise<void> {
    const id = headers[SESSION_HEADER];
    const messages = Array.isArray(entry.message) ? entry.message : [entry.message];
    const opens = id === undefined && messages.some((m) => isObject(m) && m.method === 'initialize');
    if (req.method === 'POST' && entry.message === undefined)
      return send(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    if (opens) {
      const minted = randomUUID();
      const session = new InitializeSession(minted);
      this.sessions.set(minted, session);
      if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      return this.answer(res, entry, session, send, { [SESSION_HEADER]: minted });
    }
    if (id === undefined)
      return send(400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first)' },
      });
    const session = this.sessions.get(id);
    const isRequest = messages.some((m) => isObject(m) && typeof m.method === 'string');
    if (session?.expiring && isRequest) this.sessions.delete(id);
    if (!session || !this.sessions.has(id))
      return send(404, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Not Found: no such session (it ended)' },
      });
    if (req.method === 'DELETE') {
      this.sessions.delete(id);
      return send(200);
    }
    if (req.method === 'GET') return this.stream(res, entry, session);
    if (req.method !== 'POST') return send(405, undefined, { allow: 'GET, POST, DELETE' });
    const version = headers['mcp-protocol-version'];
    if (
      compareRevisions(session.revision, '2025-06-18') >= 0 &&
      version !== undefined &&
      version !== session.revision &&
      !messages.some((m) => isObject(m) && m.method === 'initialize')
    ) {
      return send(400, {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: `Bad Request: MCP-Protocol-Version ${version} is not this session's (${session.revision})`,
        },
      });
    }
    return this.answer(res, entry, session, send, {});
  }

  /**
   * The answer to a POST: JSON, or an SSE stream once the server says something before it (or the tool asks for one).
   */
  private async answer(
    res: ServerResponse,
    entry: SeenMessage,
    session: InitializeSession,
    send: Send,
    extraHeaders: Record<string, string>,
  ): Promise<void> {
    let streaming = false;
    const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    const out: Sink = (message) => {
      if (!streaming) {
        streaming = true;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...extraHeaders });
      }
      this.recorder.notified(entry.connection, message);
      res.write(event(message));
    };
    const answer = await this.server.handle(session, entry.message, out);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (answer.body === undefined) {
      if (!streaming) return send(202, undefined, extraHeaders);
      this.recorder.answered(entry, { status: 200 });
      return void res.end();
    }
    if (!streaming && !answer.sse) return send(answer.status, answer.body, extraHeaders);
    if (!streaming)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...extraHeaders });
    this.recorder.answered(entry, {
      status: 200,
      body: answer.body,
      ...(Object.keys(extraHeaders).length > 0 ? { headers: extraHeaders } : {}),
    });
    res.end(event(answer.body));
  }

  /** The session's GET stream: what the server says on its own (list_changed), until the client closes it. */
  private stream(res: ServerResponse, entry: SeenMessage, session: InitializeSession): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': session stream\n\n');
    this.recorder.answered(entry, { status: 200 });
    const sink: Sink = (message) => {
      this.recorder.notified(entry.connection, message);
      res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };
    session.standalone = sink;
    res.once('close', () => {
      if (session.standalone === sink) delete session.standalone;
    });
  }
}
