import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { isObject, type JsonRpcId } from '../jsonrpc.js';
import { killGroup, trackChild } from './children.js';
import { splitCommandLine } from './command-line.js';
import { ListenState } from './listen-stream.js';
import { RequestGate } from './request-gate.js';
import { DEFAULT_MAX_MESSAGE_BYTES, nextSeq } from './sequence.js';
import {
  TargetUnavailableError,
  type Exchange,
  type ListenStream,
  type InputEnd,
  type SendOptions,
  type StrayEvent,
  type Transport,
  type TransportFailure,
} from './types.js';

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
const STRAY_KEEP = 1000;
const RAW_LINE_KEEP = 2048;

/** Newline-delimited JSON-RPC over a spawned target's stdin/stdout (spec basic/transports/stdio). */
export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  readonly description: string;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Ids we stopped waiting for: a late answer to one of them is recorded but blames no other request. */
  private readonly abandoned = new Set<string>();
  private readonly strayEvents: StrayEvent[] = [];
  private strayDropped = 0;
  private stderrText = '';
  /** The text of the line being received, in the pieces it arrived in. */
  private partial: string[] = [];
  private partialLength = 0;
  /** The rest of an oversized line is skipped up to its newline. */
  private discardingLine = false;
  private readonly decoder = new StringDecoder('utf8');
  private exited: TransportFailure | undefined;
  private readonly maxMessageBytes: number;
  private readonly gate: RequestGate;

  constructor(private readonly options: StdioTransportOptions) {
    this.description = options.command;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.gate = options.gate ?? new RequestGate();
  }

  async start(): Promise<void> {
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
    child.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
    child.stdin!.on('error', () => {
      /* EPIPE when the target died; the exit handler reports it */
    });
    child.on('exit', (code, signal) => this.onExit(code, signal));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new TargetUnavailableError(`cannot start '${argv[0]}': ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
      );
    });
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
    if (this.exited) {
      exchange.failure = this.exited;
      return exchange;
    }
    this.child!.stdin!.write(JSON.stringify(message) + '\n');
    if (options.notification || id === undefined) return exchange;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    return new Promise<Exchange>((resolve) => {
      const key = idKey(id);
      const timer = setTimeout(() => {
        this.abandoned.add(key);
        this.settle(key, { kind: 'timeout', message: `no response to id ${JSON.stringify(id)} within ${timeoutMs} ms` });
      }, timeoutMs);
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
        this.child!.stdin!.write(JSON.stringify(cancel) + '\n');
      }
    };
    const listen = new ListenState(exchange, stop);
    if (this.exited) {
      exchange.failure = this.exited;
      listen.onEnd();
      return listen;
    }
    this.pending.set(key, { exchange, started: performance.now(), resolve: () => listen.onEnd(), listen });
    this.child!.stdin!.write(JSON.stringify(message) + '\n');
    return listen;
  }

  strays(): readonly StrayEvent[] {
    return this.strayEvents;
  }

  stderr(): string {
    return this.stderrText;
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

  /** Only the new text is searched for a newline: a multi-megabyte line arriving in small chunks stays linear. */
  private onStdout(chunk: Buffer): void {
    let text = this.decoder.write(chunk);
    if (this.discardingLine) {
      const newline = text.indexOf('\n');
      if (newline < 0) return;
      text = text.slice(newline + 1);
      this.discardingLine = false;
    }
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) >= 0) {
      const piece = text.slice(start, newline);
      const line = (this.partial.length > 0 ? this.partial.join('') + piece : piece).replace(/\r$/, '');
      this.partial = [];
      this.partialLength = 0;
      start = newline + 1;
      if (line.length > this.maxMessageBytes && Buffer.byteLength(line) > this.maxMessageBytes) this.onOversized();
      else if (line.trim() !== '') this.onLine(line);
    }
    if (start < text.length) {
      this.partial.push(start === 0 ? text : text.slice(start));
      this.partialLength += text.length - start;
    }
    if (this.partialLength > this.maxMessageBytes && Buffer.byteLength(this.partial.join('')) > this.maxMessageBytes) {
      this.partial = [];
      this.partialLength = 0;
      this.discardingLine = true;
      this.onOversized();
    }
  }

  /** A message over the size bound is dropped and blamed on the oldest pending request. */
  private onOversized(): void {
    this.stray('non-json', `a line exceeded ${this.maxMessageBytes} bytes and was discarded`);
    const oldest = [...this.pending.entries()].find(([, p]) => !p.listen);
    if (oldest) this.settle(oldest[0], { kind: 'too-large', message: `message larger than ${this.maxMessageBytes} bytes` });
  }

  private onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.stray('non-json', line.length > RAW_LINE_KEEP ? line.slice(0, RAW_LINE_KEEP) + '…' : line);
      return;
    }
    if (isObject(message) && 'method' in message) {
      const kind = 'id' in message ? 'server-request' : 'notification';
      for (const p of this.pending.values()) {
        p.exchange.notifications.push(message);
        p.listen?.onMessage();
      }
      if (this.pending.size === 0 || kind === 'server-request') this.stray(kind, message);
      return;
    }
    const id = isObject(message) ? message.id : undefined;
    const key = id === undefined ? undefined : idKey(id);
    const match = key === undefined ? undefined : this.pending.get(key);
    if (match && key !== undefined) {
      match.exchange.response = message;
      this.settle(key);
      return;
    }
    const inFlight = [...this.pending.entries()].filter(([, p]) => !p.listen);
    if (id === null && isObject(message) && 'error' in message && inFlight.length === 1) {
      // An error the server could not tie to an id answers the only request in flight; checks judge the null id.
      const [onlyKey, only] = inFlight[0]!;
      only.exchange.response = message;
      this.settle(onlyKey);
      return;
    }
    this.stray('unknown-id', message);
    if (inFlight.length === 1 && !(key !== undefined && this.abandoned.has(key))) {
      const [onlyKey, only] = inFlight[0]!;
      only.exchange.response = message;
      this.settle(onlyKey, {
        kind: 'wrong-id',
        message: `response id ${JSON.stringify(id)} does not match the request id ${JSON.stringify(
          (only.exchange.request as { id?: unknown }).id,
        )}`,
      });
    }
  }

  private onStderr(chunk: Buffer): void {
    this.stderrText += chunk.toString('utf8');
    if (this.stderrText.length > STDERR_KEEP) this.stderrText = '…' + this.stderrText.slice(-STDERR_KEEP);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const tail = this.stderrText.trim().split('\n').slice(-3).join(' | ');
    this.exited = { kind: 'target-exited', message: `target exited with ${how}${tail ? ` (stderr: ${tail.slice(0, 500)})` : ''}` };
    for (const key of [...this.pending.keys()]) this.settle(key, this.exited);
  }

  private settle(key: string, failure?: TransportFailure): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    if (p.timer) clearTimeout(p.timer);
    p.exchange.durationMs = Math.round((performance.now() - p.started) * 1000) / 1000;
    if (failure) p.exchange.failure = failure;
    p.resolve(p.exchange);
  }

  private stray(kind: StrayEvent['kind'], data: unknown): void {
    if (this.strayEvents.length >= STRAY_KEEP) {
      this.strayDropped += 1;
      return;
    }
    this.strayEvents.push({ at: new Date().toISOString(), kind, data });
  }
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
