import { spawn, type ChildProcess } from 'node:child_process';
import { isObject, type JsonRpcId } from '../jsonrpc.js';
import { killGroup, trackChild } from './children.js';
import { splitCommandLine } from './command-line.js';
import { recordNotification, StrayLog } from './evidence-caps.js';
import { stderrExcerpt } from './stderr-excerpt.js';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH, tooDeepMessage } from './json-depth.js';
import { ListenState } from './listen-stream.js';
import { RequestGate } from './request-gate.js';
import { DEFAULT_MAX_MESSAGE_BYTES, nextSeq } from './sequence.js';
import { decodeUtf8 } from './utf8.js';
import {
  TargetUnavailableError,
  type ListenStream,
  type InputEnd,
  type SendOptions,
  type ServerRequestResponder,
  type Transport,
} from './types.js';
import type { Exchange, StrayEvent, TransportFailure } from '../model/exchange.js';

export interface StdioTransportOptions {
  command: string;
  timeoutMs: number;
  maxMessageBytes?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Shared by every connection (process) of a run (--max-rps); defaults to a private one with no cap. */
  gate?: RequestGate;
}

interface Pending {
  exchange: Exchange;
  started: number;
  timer?: NodeJS.Timeout;
  resolve(exchange: Exchange): void;
  /** A subscriptions/listen stream: no timeout, and never the target of the one-request-in-flight heuristics. */
  listen?: ListenState;
}

const STDERR_KEEP = 64 * 1024;
/** The start of stderr is kept apart from its tail: a start-up error stays visible however much follows it. */
const STDERR_START_KEEP = 8 * 1024;
const RAW_LINE_KEEP = 2048;
/** Ids of answered requests remembered, to recognise a second answer to one of them. */
const ANSWERED_KEEP = 10_000;
/** After the target exits, how long we wait for the rest of its stdout before judging what is still pending. */
const STDOUT_DRAIN_MS = 250;

/** Newline-delimited JSON-RPC over a spawned target's stdin/stdout (spec basic/transports/stdio). */
export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  readonly description: string;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Ids we stopped waiting for: a late answer to one of them is recorded but blames no other request. */
  private readonly abandoned = new Set<string>();
  private readonly strayLog = new StrayLog();
  private responder: ServerRequestResponder | undefined;
  private stderrText = '';
  private stderrStart = '';
  private stderrSeen = 0;
  /** The stdout line being received, as raw bytes in pieces (joined and decoded once, when its newline arrives). */
  private lineParts: Buffer[] = [];
  private lineBytes = 0;
  /** The rest of an oversized line is skipped up to its newline. */
  private discardingLine = false;
  /** Bytes of a line the target left unterminated when its stdout ended. */
  private unterminatedBytes = 0;
  private readonly answered = new Set<string>();
  private corked = false;
  private starting: Promise<void> | undefined;
  /** Set once the target answered a request twice: nothing it says can be matched to our requests any more. */
  private broken: TransportFailure | undefined;
  private exited: TransportFailure | undefined;
  private readonly maxMessageBytes: number;
  private readonly gate: RequestGate;

  constructor(private readonly options: StdioTransportOptions) {
    this.description = options.command;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.gate = options.gate ?? new RequestGate();
  }

  /** Starts the target once: a connection started ahead of its use is started again by its user, who waits the same. */
  start(): Promise<void> {
    this.starting ??= this.spawnTarget();
    return this.starting;
  }

  private async spawnTarget(): Promise<void> {
    let argv: string[];
    try {
      argv = splitCommandLine(this.options.command);
    } catch (error) {
      throw new TargetUnavailableError(`cannot parse --stdio command: ${(error as Error).message}`);
    }
    if (argv.length === 0) throw new TargetUnavailableError('the --stdio command is empty');
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: this.options.env ?? process.env,
      cwd: this.options.cwd,
    });
    this.child = child;
    trackChild(child);
    child.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
    const stdoutEnded = new Promise<void>((ended) => child.stdout!.once('close', ended));
    child.stdout!.once('end', () => this.onStdoutEnd());
    child.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
    child.stdin!.on('error', () => {
      /* EPIPE when the target died; the exit handler reports it */
    });
    // What the target wrote just before exiting may still be in the pipe: read it before judging pending requests.
    child.on('exit', (code, signal) => {
      const drained = new Promise<void>((done) => setTimeout(done, STDOUT_DRAIN_MS).unref());
      void Promise.race([stdoutEnded, drained]).then(() => this.onExit(code, signal));
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new TargetUnavailableError(`cannot start '${argv[0]}': ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
      );
    });
  }

  /**
   * Lines written in one turn of the event loop leave in one write (corked until the check phase): concurrent checks
   * answer a batch of responses with a batch of requests, and a write to the pipe costs more than building them.
   */
  private writeLine(text: string): void {
    const stdin = this.child!.stdin!;
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      setImmediate(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    stdin.write(text + '\n');
  }

  async send(message: unknown, id: JsonRpcId | undefined, options: SendOptions = {}): Promise<Exchange> {
    await this.gate.acquire();
    const exchange: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: message,
      notifications: [],
    };
    const started = performance.now();
    if (this.exited ?? this.broken) {
      exchange.failure = (this.exited ?? this.broken)!;
      return exchange;
    }
    this.writeLine(JSON.stringify(message));
    if (options.notification || id === undefined) return exchange;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    return new Promise<Exchange>((resolve) => {
      const key = idKey(id);
      // The timeout is decided after one more pass of the event loop's poll phase: if the main thread was blocked
      // (a loaded machine, a synchronous validation), an answer already waiting in the pipe is read before we give up.
      const timer = setTimeout(() => setImmediate(() => {
        if (!this.pending.has(key)) return;
        this.abandoned.add(key);
        this.settle(key, { kind: 'timeout', message: `no response to id ${JSON.stringify(id)} within ${timeoutMs} ms` });
      }), timeoutMs);
      this.pending.set(key, { exchange, started, timer, resolve });
    });
  }

  async listen(message: unknown, id: JsonRpcId, _options: SendOptions = {}): Promise<ListenStream> {
    await this.gate.acquire();
    const exchange: Exchange = { seq: nextSeq(), sentAt: new Date().toISOString(), durationMs: 0, request: message, notifications: [] };
    const key = idKey(id);
    const stop = async (): Promise<void> => {
      if (!this.pending.has(key)) return;
      this.pending.delete(key);
      if (!this.exited) {
        const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'subscription no longer needed' } };
        this.writeLine(JSON.stringify(cancel));
      }
    };
    const listen = new ListenState(exchange, stop);
    if (this.exited) {
      exchange.failure = this.exited;
      listen.onEnd();
      return listen;
    }
    this.pending.set(key, { exchange, started: performance.now(), resolve: () => listen.onEnd(), listen });
    this.writeLine(JSON.stringify(message));
    return listen;
  }

  strays(): readonly StrayEvent[] {
    return this.strayLog.events;
  }

  answerServerRequests(responder: ServerRequestResponder): void {
    this.responder = responder;
  }

  stderr(): string {
    if (this.stderrSeen <= STDERR_KEEP) return this.stderrText;
    return `${this.stderrStart}\n…\n${this.stderrText}`;
  }

  async endInput(waitMs: number): Promise<InputEnd> {
    const child = this.child;
    if (!child) throw new Error('the target was never started');
    if (hasExited(child)) return { kind: 'already-exited', how: exitDescription(child) };
    const started = performance.now();
    child.stdin!.end();
    if (!(await exitedWithin(child, waitMs))) return { kind: 'still-running', waitedMs: waitMs };
    return { kind: 'exited', afterMs: Math.round(performance.now() - started), how: exitDescription(child) };
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    for (const key of [...this.pending.keys()]) this.settle(key, { kind: 'target-exited', message: 'transport closed' });
    if (hasExited(child)) {
      killGroup(child, 'SIGKILL');
      return;
    }
    child.stdin!.end();
    if (await exitedWithin(child, 500)) return killGroup(child, 'SIGKILL');
    killGroup(child, 'SIGTERM');
    if (await exitedWithin(child, 1000)) return killGroup(child, 'SIGKILL');
    killGroup(child, 'SIGKILL');
    await exitedWithin(child, 1000);
  }

  /**
   * Only the new bytes are searched for a newline: a multi-megabyte line arriving in small chunks stays linear. Lines
   * are split as bytes (0x0A never occurs inside a multi-byte UTF-8 sequence) and each is decoded whole, so that
   * a line whose bytes are not valid UTF-8 is known as such (transport.utf8).
   */
  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      this.appendToLine(chunk.subarray(start, newline));
      start = newline + 1;
      this.endLine();
    }
    this.appendToLine(chunk.subarray(start));
  }

  private appendToLine(piece: Buffer): void {
    if (this.discardingLine || piece.length === 0) return;
    this.lineParts.push(piece);
    this.lineBytes += piece.length;
    if (this.lineBytes > this.maxMessageBytes) {
      this.lineParts = [];
      this.lineBytes = 0;
      this.discardingLine = true;
      this.onOversized();
    }
  }

  private endLine(): void {
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    const decoded = decodeUtf8(this.lineParts.length === 1 ? this.lineParts[0]! : Buffer.concat(this.lineParts, this.lineBytes));
    const line = decoded.text.replace(/\r$/, '');
    this.lineParts = [];
    this.lineBytes = 0;
    if (line.trim() !== '') this.onLine(line, !decoded.valid);
  }

  /** A line cut off by the end of stdout (a target that died mid-message) is noise on stdout, and said so on exit. */
  private onStdoutEnd(): void {
    const bytes = Buffer.concat(this.lineParts);
    const rest = decodeUtf8(bytes).text;
    this.lineParts = [];
    if (rest.trim() === '') return;
    this.unterminatedBytes = bytes.length;
    this.stray('non-json', clip(rest), RAW_LINE_KEEP);
  }

  /** A message over the size bound is dropped and blamed on the oldest pending request. */
  private onOversized(): void {
    this.stray('non-json', `a line exceeded ${this.maxMessageBytes} bytes and was discarded`, 100);
    const oldest = [...this.pending.entries()].find(([, p]) => !p.listen);
    if (oldest) this.settle(oldest[0], { kind: 'too-large', message: `message larger than ${this.maxMessageBytes} bytes` });
  }

  /** `invalidUtf8`: the line's bytes were not valid UTF-8; a JSON message read from it is marked where it is recorded. */
  private onLine(line: string, invalidUtf8 = false): void {
    if (jsonNestedDeeperThan(line, MAX_JSON_DEPTH)) {
      this.stray('non-json', clip(line), RAW_LINE_KEEP);
      const oldest = [...this.pending.entries()].find(([, p]) => !p.listen);
      if (oldest) this.settle(oldest[0], { kind: 'too-deep', message: tooDeepMessage(MAX_JSON_DEPTH) });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.stray('non-json', clip(line), RAW_LINE_KEEP);
      return;
    }
    const mark = (exchange: Exchange) => {
      if (invalidUtf8) exchange.invalidUtf8 = (exchange.invalidUtf8 ?? 0) + 1;
    };
    if (Array.isArray(message)) {
      this.onBatch(message, line.length, mark);
      return;
    }
    if (isObject(message) && 'method' in message) {
      for (const p of this.pending.values()) {
        recordNotification(p.exchange, message, line.length);
        mark(p.exchange);
        p.listen?.onMessage();
      }
      if ('id' in message) this.onServerRequest(message, line.length, invalidUtf8);
      else if (this.pending.size === 0) this.stray('notification', message, line.length, invalidUtf8);
      return;
    }
    const id = isObject(message) ? message.id : undefined;
    const key = id === undefined ? undefined : idKey(id);
    const match = key === undefined ? undefined : this.pending.get(key);
    if (match && key !== undefined) {
      match.exchange.response = message;
      mark(match.exchange);
      this.settle(key);
      this.remember(key);
      return;
    }
    if (key !== undefined && this.answered.has(key)) {
      this.onDuplicate(id, message, line.length, invalidUtf8);
      return;
    }
    const inFlight = [...this.pending.entries()].filter(([, p]) => !p.listen);
    if (id === null && isObject(message) && 'error' in message && inFlight.length === 1) {
      // An error the server could not tie to an id answers the only request in flight; checks judge the null id.
      const [onlyKey, only] = inFlight[0]!;
      only.exchange.response = message;
      mark(only.exchange);
      this.settle(onlyKey);
      return;
    }
    this.stray('unknown-id', message, line.length, invalidUtf8);
    if (inFlight.length === 1 && !(key !== undefined && this.abandoned.has(key))) {
      const [onlyKey, only] = inFlight[0]!;
      only.exchange.response = message;
      mark(only.exchange);
      this.settle(onlyKey, {
        kind: 'wrong-id',
        message: `response id ${JSON.stringify(id)} does not match the request id ${JSON.stringify(
          (only.exchange.request as { id?: unknown }).id,
        )}`,
      });
    }
  }

  /**
   * A JSON-RPC batch (2025-03-26): the response, as a whole, of the request waiting for one of the ids its responses
   * carry (a batch we sent is waited for under one of its ids); one that answers no waiting request is a stray.
   */
  private onBatch(batch: unknown[], size: number, mark: (exchange: Exchange) => void): void {
    const keys = batch.flatMap((m) => (isObject(m) && !('method' in m) && 'id' in m ? [idKey(m.id)] : []));
    const key = keys.find((k) => this.pending.has(k) && !this.pending.get(k)!.listen);
    if (key === undefined) {
      this.stray('unknown-id', batch, size);
      return;
    }
    const match = this.pending.get(key)!;
    match.exchange.response = batch;
    mark(match.exchange);
    this.settle(key);
    for (const answered of keys) this.remember(answered);
  }

  /** A request from the server: answered on a line of its own when the responder has an answer, and kept with it. */
  private onServerRequest(request: Record<string, unknown>, size: number, invalidUtf8: boolean): void {
    const answer = this.exited ? undefined : this.responder?.(request);
    if (answer) this.writeLine(JSON.stringify(answer.response));
    this.strayLog.add('server-request', request, size, { ...(invalidUtf8 ? { invalidUtf8: true as const } : {}), ...(answer ? { answer: answer.response } : {}) });
  }

  /** A second answer to a request: the target's answers can no longer be trusted to be ours, so the audit stops. */
  private onDuplicate(id: unknown, message: unknown, size: number, invalidUtf8: boolean): void {
    this.stray('unknown-id', message, size, invalidUtf8);
    this.broken ??= { kind: 'duplicate-response', message: `the target answered the request with id ${JSON.stringify(id)} a second time` };
    for (const [key, p] of [...this.pending.entries()]) if (!p.listen) this.settle(key, this.broken);
  }

  private remember(key: string): void {
    if (this.answered.size >= ANSWERED_KEEP) this.answered.delete(this.answered.values().next().value!);
    this.answered.add(key);
  }

  private onStderr(chunk: Buffer): void {
    const text = chunk.toString('utf8');
    if (this.stderrStart.length < STDERR_START_KEEP) this.stderrStart += text.slice(0, STDERR_START_KEEP - this.stderrStart.length);
    this.stderrSeen += text.length;
    this.stderrText += text;
    if (this.stderrText.length > STDERR_KEEP) this.stderrText = this.stderrText.slice(-STDERR_KEEP);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const tail = stderrExcerpt(this.stderr()).join(' | ');
    const cut = this.unterminatedBytes > 0 ? ` in the middle of a message (${this.unterminatedBytes} bytes without a newline)` : '';
    this.exited = { kind: 'target-exited', message: `target exited with ${how}${cut}${tail ? ` (stderr: ${tail.slice(0, 500)})` : ''}` };
    for (const key of [...this.pending.keys()]) this.settle(key, this.exited);
  }

  private settle(key: string, failure?: TransportFailure): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    if (p.timer) clearTimeout(p.timer);
    p.exchange.durationMs = Math.round((performance.now() - p.started) * 1000) / 1000;
    if (failure) p.exchange.failure = failure;
    if (p.exchange.response !== undefined) p.exchange.answeredSeq = nextSeq();
    p.resolve(p.exchange);
  }

  private stray(kind: StrayEvent['kind'], data: unknown, size: number, invalidUtf8 = false): void {
    this.strayLog.add(kind, data, size, invalidUtf8 ? { invalidUtf8: true } : {});
  }
}

function clip(line: string): string {
  return line.length > RAW_LINE_KEEP ? line.slice(0, RAW_LINE_KEEP) + '…' : line;
}

function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function exitDescription(child: ChildProcess): string {
  return child.signalCode !== null ? `on signal ${child.signalCode}` : `with code ${String(child.exitCode)}`;
}

function exitedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
