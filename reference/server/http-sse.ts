import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Reply } from './reply.js';
import type { InitializeRevision } from './revisions.js';
import { InitializeSession } from './session.js';

/** The event stream a GET opens. */
export const SSE_PATH = '/sse';
/** Where a session's messages are POSTed: the `endpoint` event names it, with the session's id. */
export const MESSAGES_PATH = '/messages';

export interface SseSession {
  session: InitializeSession;
  /** Writes one message of the server on the session's stream. */
  send(message: unknown): void;
}

/**
 * The sessions of the deprecated HTTP+SSE transport of 2024-11-05 (basic/transports § HTTP with SSE): a GET to /sse
 * opens a session's event stream, whose first event, `endpoint`, names the URL the client POSTs its messages to
 * (/messages?sessionId=…); every message of the server goes on that stream as a `message` event. A session ends with
 * its stream.
 */
export class HttpSseSessions {
  private readonly sessions = new Map<string, SseSession>();

  constructor(private readonly own: InitializeRevision) {}

  /** A GET to /sse: a new session on this stream, whose head the caller has written. */
  open(res: ServerResponse): void {
    const id = randomUUID();
    this.sessions.set(id, {
      session: new InitializeSession(this.own),
      send: (message) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
    });
    res.on('close', () => this.sessions.delete(id));
    res.write(`event: endpoint\ndata: ${MESSAGES_PATH}?sessionId=${id}\n\n`);
  }

  /** The session a POST names with its sessionId. */
  find(url: URL): SseSession | undefined {
    const id = url.searchParams.get('sessionId');
    return id === null ? undefined : this.sessions.get(id);
  }
}

/**
 * What a reply puts on the stream: its messages, a batch's responses as one array. Waiting and streaming replies (stdio
 * or 2026-07-28 only) put nothing.
 */
export function streamedMessages(reply: Reply): unknown[] {
  if (reply.kind === 'send') return reply.messages;
  if (reply.kind === 'batch') return [...reply.before, ...(reply.responses.length > 0 ? [reply.responses] : [])];
  return [];
}
