import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { methodOf, type ArrivalLog } from './arrival-log.js';
import { answerDelayMs, type AnswerLatency } from './latency.js';
import type { ActiveDefects } from './defects/active.js';
import type { HttpRules } from './defects/seams/transports.js';
import { handleText } from './handler.js';
import type { OutgoingMessage } from './messages.js';
import type { HandlerContext, Reply } from './reply.js';
import { HttpSseSessions, MESSAGES_PATH, SSE_PATH, streamedMessages } from './http-sse.js';
import { HttpSessions } from './http-sessions.js';
import { REVISION_RULES, type InitializeRevision } from './revisions.js';
import type { ListingScale } from './scale-tools.js';
import { createServerState } from './server-state.js';

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Benchmarks (AnswerLatency): tools/call answers are sent late; other requests are answered meanwhile. */
export interface HttpServerOptions extends AnswerLatency {
  /** 0 picks a free port. */
  port: number;
  /** Answer every request with an SSE stream instead of a JSON body. */
  sse: boolean;
  defects: ActiveDefects;
  log: (line: string) => void;
  onArrival?: ArrivalLog;
  /** Answer the first tools/list with 429 and this Retry-After (seconds). */
  rateLimitOnce?: number;
  /** Benchmarks: generated tools appended to the listing. */
  scale?: ListingScale;
  /**
   * Serve this initialize revision (and older ones): Streamable HTTP with one session per Mcp-Session-Id, or for
   * 2024-11-05 the HTTP+SSE transport, one session per event stream. Absent: 2026-07-28.
   */
  revision?: InitializeRevision;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * HTTP on 127.0.0.1: Streamable HTTP with a single endpoint at /mcp, or (2024-11-05) HTTP+SSE with its stream at /sse.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const state = createServerState();
  const rules = httpRules(options.defects);
  const sessions = httpSessions(options.revision, options.defects);
  let rateLimit = options.rateLimitOnce;
  const server = createServer((req, res) => {
    const method = String(req.headers['mcp-method'] ?? '-');
    if (rateLimit !== undefined && req.method === 'POST' && method === 'tools/list') {
      options.onArrival?.(`POST ${method} 429`, String(req.socket.remotePort));
      res.writeHead(429, { 'Retry-After': String(rateLimit), 'Content-Type': 'text/plain' }).end('Too Many Requests');
      rateLimit = undefined;
      return;
    }
    options.onArrival?.(`${req.method ?? '?'} ${method}`, String(req.socket.remotePort));
    serveRequest(req, res, options, rules, state, sessions).catch((error: unknown) => {
      options.log(`error serving ${req.method ?? '?'} ${req.url ?? '?'}: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${sessions instanceof HttpSseSessions ? SSE_PATH : MCP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The conforming rules, as the active defects change them. */
function httpRules(defects: ActiveDefects): HttpRules {
  const rules: HttpRules = {
    foreignOriginRefused: true,
    foreignOriginStatus: 403,
    acceptedStatus: 202,
    deleteEndsSession: true,
  };
  defects.at.httpRules(rules);
  return rules;
}

/** The sessions of an initialize revision's HTTP transport; none on 2026-07-28. */
function httpSessions(
  revision: InitializeRevision | undefined,
  defects: ActiveDefects,
): HttpSessions | HttpSseSessions | undefined {
  if (!revision) return undefined;
  if (REVISION_RULES[revision].http === 'http+sse') return new HttpSseSessions(revision);
  return new HttpSessions(revision, () => {
    const minted = randomUUID();
    return defects.at.httpSessionId(minted) ?? minted;
  });
}

async function serveRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpServerOptions,
  rules: HttpRules,
  state: HandlerContext['state'],
  sessions: HttpSessions | HttpSseSessions | undefined,
): Promise<void> {
  const { defects } = options;
  const startingHeaders: Record<string, string> = {};
  defects.at.httpResponseHeaders(startingHeaders);
  for (const [name, value] of Object.entries(startingHeaders)) res.setHeader(name, value);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const origin = req.headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin) && rules.foreignOriginRefused) {
    const status = rules.foreignOriginStatus;
    const error = { code: -32600, message: `Forbidden: Origin ${origin} is not allowed` };
    // schema.json requires an id on an error before 2025-11-25 (whose page lets this one go without): on the initialize
    // revisions the error carries the request's id, or null when the body names none.
    const id = sessions && req.method === 'POST' ? { id: requestId((await readBody(req)) ?? '') } : {};
    return void writeJson(res, status, { jsonrpc: '2.0', ...id, error }, defects);
  }
  if (sessions instanceof HttpSseSessions) return serveHttpSse(req, res, url, sessions, options, state);
  if (url.pathname !== MCP_PATH) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  if (sessions && req.method === 'DELETE') {
    return void res.writeHead(sessions.end(req.headers, rules.deleteEndsSession)).end();
  }
  if (req.method !== 'POST') {
    const answer = defects.at.httpMethodNotAllowed({ method: req.method ?? '', sessions: sessions !== undefined });
    if (answer !== undefined) return void writeJson(res, 200, answer, defects);
    return void res.writeHead(405, { Allow: 'POST' }).end();
  }

  const body = await readBody(req);
  if (body === undefined) return void res.writeHead(413).end();
  const refusal = defects.at.httpPostRefusal(req.headers);
  if (refusal !== undefined) {
    return void writeJson(res, refusal.status, { jsonrpc: '2.0', id: requestId(body), error: refusal.error }, defects);
  }
  const routed = sessions?.route(req.headers, parsedOrUndefined(body));
  if (routed && 'status' in routed) {
    return void writeJson(
      res,
      routed.status,
      { jsonrpc: '2.0', id: requestId(body), error: { code: -32600, message: routed.message } },
      defects,
    );
  }
  if (routed?.minted) res.setHeader('Mcp-Session-Id', routed.minted);
  const ctx: HandlerContext = {
    transport: 'http',
    defects,
    state,
    connection: String(req.socket.remotePort ?? 'unknown'),
    headers: defects.at.httpRequestHeaders(req.rawHeaders) ?? req.headers,
    log: options.log,
    ...(options.scale ? { scale: options.scale } : {}),
    ...(routed ? { session: routed.session } : {}),
  };
  const reply = handleText(body, ctx);
  const delayMs = answerDelayMs(methodOf(body), reply, options);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  writeReply(res, reply, options.sse, rules, defects);
}

/**
 * The HTTP+SSE transport of 2024-11-05: a GET to /sse opens a session's stream (a POST there is 405, so that a client
 * trying Streamable HTTP first falls back to the GET); a POST to the endpoint the stream named is accepted with 202,
 * and answered on the stream.
 */
async function serveHttpSse(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  sessions: HttpSseSessions,
  options: HttpServerOptions,
  state: HandlerContext['state'],
): Promise<void> {
  if (url.pathname === SSE_PATH) {
    if (req.method !== 'GET') return void res.writeHead(405, { Allow: 'GET' }).end();
    res.writeHead(200, sseHeaders(options.defects));
    return sessions.open(res);
  }
  if (url.pathname !== MESSAGES_PATH || req.method !== 'POST')
    return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  const stream = sessions.find(url);
  if (!stream) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('No such session');
  const body = await readBody(req);
  if (body === undefined) return void res.writeHead(413).end();
  res.writeHead(202, { 'Content-Type': 'text/plain' }).end('Accepted');
  const ctx: HandlerContext = {
    transport: 'http',
    defects: options.defects,
    state,
    connection: String(req.socket.remotePort ?? 'unknown'),
    log: options.log,
    session: stream.session,
    ...(options.scale ? { scale: options.scale } : {}),
  };
  for (const message of streamedMessages(handleText(body, ctx))) stream.send(message);
}

/** subscriptions/listen: an SSE stream that stays open until the client closes it. */
function openListenStream(res: ServerResponse, reply: Reply & { kind: 'listen' }, defects: ActiveDefects): void {
  res.writeHead(200, sseHeaders(defects));
  const write = (message: OutgoingMessage) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  if (reply.ack) write(reply.ack);
  else res.flushHeaders();
  const end = reply.open(write);
  res.on('close', end);
}

function writeReply(res: ServerResponse, reply: Reply, sse: boolean, rules: HttpRules, defects: ActiveDefects): void {
  switch (reply.kind) {
    case 'none':
      return void res.writeHead(rules.acceptedStatus).end();
    case 'hang':
      return;
    case 'listen':
      return openListenStream(res, reply, defects);
    case 'raw':
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(reply.text);
    case 'batch':
      return writeBatch(res, reply, sse, defects);
    case 'send': {
      if ((sse || reply.stream) && reply.status === 200) return writeEventStream(res, reply.messages, defects);
      const response = reply.messages[reply.messages.length - 1];
      return writeJson(res, reply.status, response ?? {}, defects);
    }
  }
}

/**
 * A batch's answer (2025-03-26 basic/transports § Sending Messages to the Server): 202 with no body when it held no
 * request, else its responses as one array, in a JSON body or (after messages of their own, or under --sse) an SSE
 * event.
 */
function writeBatch(res: ServerResponse, reply: Reply & { kind: 'batch' }, sse: boolean, defects: ActiveDefects): void {
  if (reply.responses.length === 0 && reply.before.length === 0) {
    const answer = defects.at.httpAcceptedBatch();
    return answer !== undefined ? writeJson(res, 200, answer, defects) : void res.writeHead(202).end();
  }
  if (!sse && reply.before.length === 0) return writeJson(res, 200, reply.responses, defects);
  res.writeHead(200, sseHeaders(defects));
  for (const message of reply.before) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  if (reply.responses.length > 0) res.write(`event: message\ndata: ${JSON.stringify(reply.responses)}\n\n`);
  res.end();
}

function writeJson(
  res: ServerResponse,
  status: number,
  message: OutgoingMessage | OutgoingMessage[],
  defects: ActiveDefects,
): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  defects.at.httpJsonHeaders(headers, message);
  res.writeHead(status, headers).end(JSON.stringify(message));
}

function writeEventStream(res: ServerResponse, messages: OutgoingMessage[], defects: ActiveDefects): void {
  res.writeHead(200, sseHeaders(defects));
  for (const message of messages) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  res.end();
}

function parsedOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** The id of a JSON-RPC request body, null when there is none to read. */
function requestId(body: string): string | number | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** Headers of a response that starts an SSE stream. */
function sseHeaders(defects: ActiveDefects): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  };
  defects.at.httpSseHeaders(headers);
  return headers;
}

function isAllowedOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
    );
  } catch {
    return false;
  }
}

/** The request body as text, or undefined when it exceeds the size limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Keep draining past the limit so the 413 response can still be written.
    if (size <= MAX_BODY_BYTES) chunks.push(buffer);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}
