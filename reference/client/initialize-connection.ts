import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { isObject } from '../../src/core/jsonrpc.js';
import { REQUEST_TIMEOUT_MS } from './constants.js';
import { Fatal } from './fatal.js';
import { warn } from './log.js';
import { SseParser } from './sse.js';

type Message = Record<string, unknown>;

/** The server ended the session (HTTP 404 to a request that named it): a new initialize starts another. */
export class SessionGone extends Error {}

/** What a server request gets back: the result, or a JSON-RPC error (with `id`, another id than the request's). */
export type ServerRequestReply = ({ result: unknown } | { error: { code: number; message: string } }) & {
  id?: unknown;
};

export type ServerRequestHandler = (request: Message) => Promise<ServerRequestReply>;

/**
 * The initialize wire under the reference client's initialize mode: one conversation over stdio (a server process) or
 * Streamable HTTP with its session. Server requests (on the SSE answer of a POST, or stdout) go to `onServerRequest`,
 * and their answers back to the server.
 */
export interface InitializeConnection {
  readonly kind: 'http' | 'stdio';
  /** The session id the server assigned (HTTP), sent on every later request; cleared to start a new session. */
  session?: string;
  /** The version for MCP-Protocol-Version (HTTP, once agreed); undefined: no header. */
  protocolVersion?: string;
  /** The method whose requests go without Mcp-Session-Id; undefined: none. */
  omitSessionOn?: string;
  request(message: Message): Promise<Message>;
  /** A notification, a response, or a batch: nothing comes back. */
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
}

export class InitializeHttp implements InitializeConnection {
  readonly kind = 'http';
  session?: string;
  protocolVersion?: string;
  omitSessionOn?: string;

  constructor(
    private readonly url: string,
    private readonly onServerRequest: ServerRequestHandler,
  ) {}

  private sendsSession(method: unknown): boolean {
    return this.session !== undefined && (this.omitSessionOn === undefined || method !== this.omitSessionOn);
  }

  private headers(method: unknown): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.sendsSession(method) ? { 'mcp-session-id': this.session! } : {}),
      ...(this.protocolVersion !== undefined ? { 'mcp-protocol-version': this.protocolVersion } : {}),
    };
  }

  async request(message: Message): Promise<Message> {
    const response = await this.post(message);
    const minted = response.headers.get('mcp-session-id');
    if (minted !== null) this.session = minted;
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream')) {
      const parser = new SseParser();
      const decoder = new TextDecoder();
      let answer: Message | undefined;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (const data of parser.push(decoder.decode(chunk, { stream: true })))
          answer = (await this.event(data, message.id)) ?? answer;
      }
      for (const data of parser.end()) answer = (await this.event(data, message.id)) ?? answer;
      if (!answer) throw new Error(`the SSE answer to ${String(message.method)} ended without its response`);
      return answer;
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!isObject(body))
      throw new Error(`HTTP ${response.status} without a JSON-RPC answer to ${String(message.method)}`);
    return body;
  }

  /** One SSE event: the response to `id` (returned), or a server request answered on the spot. */
  private async event(data: string, id: unknown): Promise<Message | undefined> {
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return undefined;
    }
    if (!isObject(message)) return undefined;
    if (typeof message.method === 'string' && 'id' in message) {
      await this.send({ jsonrpc: '2.0', id: message.id, ...(await this.onServerRequest(message)) });
      return undefined;
    }
    return typeof message.method !== 'string' && canonicalJson(message.id) === canonicalJson(id) ? message : undefined;
  }

  async send(message: unknown): Promise<void> {
    const response = await this.post(message);
    await response.body?.cancel();
  }

  private async post(message: unknown): Promise<Response> {
    const method = isObject(message) ? message.method : undefined;
    const sentSession = this.sendsSession(method);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: this.headers(method),
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Fatal(`cannot reach ${this.url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 404 && sentSession) {
      await response.body?.cancel();
      throw new SessionGone(`HTTP 404: the session ${this.session} ended`);
    }
    return response;
  }

  async close(): Promise<void> {}
}

export class InitializeStdio implements InitializeConnection {
  readonly kind = 'stdio';
  session?: string;
  protocolVersion?: string;
  omitSessionOn?: string;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<string, (message: Message) => void>();
  private buffer = '';

  constructor(
    command: string,
    private readonly onServerRequest: ServerRequestHandler,
  ) {
    this.child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', () => {});
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => {
      const lines = (this.buffer + text).split('\n');
      this.buffer = lines.pop()!;
      for (const line of lines) if (line.trim() !== '') void this.line(line);
    });
  }

  private async line(line: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return warn(`the server wrote a line that is not JSON: ${line.slice(0, 80)}`);
    }
    if (!isObject(message)) return;
    if (typeof message.method === 'string' && 'id' in message) {
      await this.send({ jsonrpc: '2.0', id: message.id, ...(await this.onServerRequest(message)) });
      return;
    }
    if (typeof message.method !== 'string') this.waiting.get(canonicalJson(message.id))?.(message);
  }

  request(message: Message): Promise<Message> {
    return new Promise((resolve, reject) => {
      const key = canonicalJson(message.id);
      const timer = setTimeout(() => reject(new Error(`${String(message.method)} timed out`)), REQUEST_TIMEOUT_MS);
      this.waiting.set(key, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(answer);
      });
      this.child.stdin.write(JSON.stringify(message) + '\n');
    });
  }

  async send(message: unknown): Promise<void> {
    this.child.stdin.write(JSON.stringify(message) + '\n');
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    this.child.kill();
  }
}
