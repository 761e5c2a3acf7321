import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InitializeHttpFront } from './initialize-http-front.js';
import type { Recorder } from './recorder.js';
import type { Answer, ScriptedServer } from './scripted-server.js';
import { slowProgress, SLOW_PROGRESS_EVERY_MS } from './slow-answer.js';
import type { SeenMessage } from '../model/client-observation.js';

/** Largest request body read; a bigger one is answered 413 and recorded truncated. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MCP_PATH = '/mcp';

/** The scripted server on Streamable HTTP: one POST per message, JSON answers (SSE where a tool asks for it). */
export async function startHttpFront(
  server: ScriptedServer,
  recorder: Recorder,
  initializeFront?: InitializeHttpFront,
): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer((req, res) => void serve(req, res, server, recorder, initializeFront));
  http.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', resolve);
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  server: ScriptedServer,
  recorder: Recorder,
  initializeFront?: InitializeHttpFront,
): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        break;
      }
      chunks.push(chunk);
    }
  } catch {
    return;
  }
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const entry = recorder.receive(Buffer.concat(chunks), 'http', `http client port ${req.socket.remotePort ?? '?'}`, {
    method: req.method ?? '',
    path: req.url ?? '',
    headers,
  });
  const send = (status: number, body?: unknown, extraHeaders: Record<string, string> = {}) => {
    recorder.answered(entry, {
      status,
      ...(body === undefined ? {} : { body }),
      ...(Object.keys(extraHeaders).length > 0 ? { headers: extraHeaders } : {}),
    });
    res.writeHead(status, body === undefined ? extraHeaders : { 'content-type': 'application/json', ...extraHeaders });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  if (tooLarge) return send(413);
  if ((req.url ?? '').split('?')[0] === MCP_PATH && initializeFront?.claims(req.method, headers, entry.message))
    return initializeFront.serve(req, res, entry, headers, send);
  if (req.method !== 'POST') return send(405, undefined, { allow: 'POST' });
  if ((req.url ?? '').split('?')[0] !== MCP_PATH) return send(404);
  if (entry.message === undefined)
    return send(400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
  const answer = server.handle(entry.message);
  if (answer.listen) return listen(res, answer.listen, server, recorder, entry.connection);
  if (answer.slow) return slowStream(res, entry, answer, recorder);
  if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
  if (answer.body === undefined || !answer.sse) return send(answer.status, answer.body);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.write(': scripted stream\n\n');
  if (answer.cutShort) {
    // The stream ends without the response: what the client does next (resume it or not) is what is judged.
    recorder.answered(entry, { status: 200 });
    return void res.end(
      answer.cutShort
        .map((e) => `id: ${e.id}\n${e.data === '' ? 'data:\n' : `event: message\ndata: ${e.data}\n`}\n`)
        .join(''),
    );
  }
  recorder.answered(entry, { status: answer.status, body: answer.body });
  res.end(`event: message\ndata: ${JSON.stringify(answer.body)}\n\n`);
}

/** A listen stream: the acknowledgment first, then what the scripted server notifies, until the client closes it. */
function listen(
  res: ServerResponse,
  request: { id: unknown; notifications: unknown },
  server: ScriptedServer,
  recorder: Recorder,
  connection: string,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  const send = (message: Record<string, unknown>) => {
    recorder.notified(connection, message);
    res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  };
  send(server.listenOpened(request.id, request.notifications, send));
  res.once('close', () => server.listenClosed(request.id));
}

/**
 * A late answer on an SSE stream (slow_answer): progress events until the answer is due, then the response. When the
 * client closes the stream first (the HTTP cancellation signal), the time is recorded and nothing more is sent.
 */
function slowStream(res: ServerResponse, entry: SeenMessage, answer: Answer, recorder: Recorder): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.write(': scripted stream\n\n');
  let sent = 0;
  const token = answer.slow?.progressToken;
  const progress = setInterval(() => {
    if (token !== undefined) res.write(`event: message\ndata: ${JSON.stringify(slowProgress(token, ++sent))}\n\n`);
  }, SLOW_PROGRESS_EVERY_MS);
  const done = setTimeout(() => {
    clearInterval(progress);
    recorder.answered(entry, { status: answer.status, body: answer.body });
    res.end(`event: message\ndata: ${JSON.stringify(answer.body)}\n\n`);
  }, answer.delayMs ?? 0);
  res.once('close', () => {
    clearInterval(progress);
    if (entry.answeredT !== undefined) return;
    clearTimeout(done);
    entry.abandonedT = recorder.now();
  });
}
