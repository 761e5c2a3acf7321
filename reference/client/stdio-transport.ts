import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { errorOf, isObject, type JsonRpcId, type Received } from '../../src/core/jsonrpc.js';
import { idKey } from './answer.js';
import { warn } from './log.js';
import { RequestFailure, timedOut, type Outgoing, type Transport } from './transport.js';

interface Waiter {
  resolve(message: Received): void;
  reject(error: RequestFailure): void;
}

const NEWLINE = 0x0a;
const EXIT_GRACE_MS = 2_000;

/** Newline-delimited JSON-RPC with a server spawned by `sh -c <command>`; its stderr is passed through. */
export class StdioTransport implements Transport {
  readonly kind = 'stdio';
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable | null>;
  /** Waiters by id, oldest first: a client that reuses an id in flight gets the answers in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Open listen streams by subscription id: every notification names its subscription in _meta (one channel). */
  private readonly subscriptions = new Map<string, (message: Received) => void>();
  private pendingBytes: Buffer = Buffer.alloc(0);
  private gone: string | undefined;
  private readonly closed: Promise<void>;

  /**
   * `stderrIsError`: the stderr-is-error defect, which fails the requests in flight when the server writes to stderr.
   */
  constructor(command: string, stderrIsError = false) {
    this.child = spawn('sh', ['-c', command], {
      stdio: ['pipe', 'pipe', stderrIsError ? 'pipe' : 'inherit'],
      detached: true,
    }) as ChildProcessByStdio<Writable, Readable, Readable | null>;
    this.child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const waiters = [...this.waiting.values()].flat();
      this.waiting.clear();
      for (const waiter of waiters) waiter.reject(new RequestFailure('invalid-response', 'the server wrote to stderr'));
    });
    this.closed = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.fail(`the server exited (${signal ?? `code ${code}`})`);
        resolve();
      });
    });
    this.child.on('error', (error) => this.fail(`could not start the server: ${error.message}`));
    this.child.stdin.on('error', () => {
      // EPIPE once the server is gone; pending requests are failed by 'close'.
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  request(message: Outgoing, id: JsonRpcId, signal: AbortSignal): Promise<Received> {
    if (this.gone) return Promise.reject(new RequestFailure('unreachable', this.gone));
    return new Promise((resolve, reject) => {
      const key = idKey(id);
      const onAbort = () => {
        this.removeWaiter(key, waiter);
        reject(timedOut());
      };
      const waiter: Waiter = {
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), waiter]);
      this.write(message.bytes);
    });
  }

  async send(message: Outgoing): Promise<void> {
    if (!this.gone) this.write(message.bytes);
  }

  listen(message: Outgoing, id: JsonRpcId, onNotification: (message: Received) => void): () => Promise<void> {
    const key = idKey(id);
    this.subscriptions.set(key, onNotification);
    if (!this.gone) this.write(message.bytes);
    return async () => {
      this.subscriptions.delete(key);
      const cancel = {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'the client is done listening' },
      };
      if (!this.gone) this.write(Buffer.from(JSON.stringify(cancel), 'utf8'));
    };
  }

  async close(): Promise<void> {
    if (!this.gone) this.child.stdin.end();
    if (await this.exitsWithin(EXIT_GRACE_MS)) return;
    this.signal('SIGTERM');
    if (await this.exitsWithin(EXIT_GRACE_MS)) return;
    this.signal('SIGKILL');
    await this.exitsWithin(EXIT_GRACE_MS);
  }

  private write(bytes: Uint8Array): void {
    this.child.stdin.write(Buffer.concat([bytes, Buffer.of(NEWLINE)]));
  }

  private onData(chunk: Buffer): void {
    this.pendingBytes = Buffer.concat([this.pendingBytes, chunk]);
    for (let end = this.pendingBytes.indexOf(NEWLINE); end !== -1; end = this.pendingBytes.indexOf(NEWLINE)) {
      const line = this.pendingBytes.subarray(0, end).toString('utf8').replace(/\r$/, '');
      this.pendingBytes = this.pendingBytes.subarray(end + 1);
      if (line.trim() !== '') this.onLine(line);
    }
  }

  private onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      warn(`ignoring a line from the server that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (isObject(message) && typeof message.method === 'string' && !('id' in message)) {
      const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : {};
      this.subscriptions.get(idKey(meta['io.modelcontextprotocol/subscriptionId'] as JsonRpcId))?.(message);
      return;
    }
    if (!isObject(message) || 'method' in message || !('result' in message || 'error' in message)) return;
    const waiters = this.waiting.get(idKey(message.id));
    if (waiters && waiters.length > 0) {
      this.take(idKey(message.id))?.resolve(message);
      return;
    }
    if ((message.id === null || message.id === undefined) && errorOf(message)) {
      // An error the server could not attach to an id: it answers the request in flight, if only one is.
      const keys = [...this.waiting.keys()];
      if (keys.length === 1 && this.waiting.get(keys[0]!)!.length === 1) this.take(keys[0]!)?.resolve(message);
    }
  }

  private take(key: string): Waiter | undefined {
    const waiters = this.waiting.get(key);
    const first = waiters?.shift();
    if (waiters && waiters.length === 0) this.waiting.delete(key);
    return first;
  }

  private removeWaiter(key: string, waiter: Waiter): void {
    const rest = (this.waiting.get(key) ?? []).filter((w) => w !== waiter);
    if (rest.length === 0) this.waiting.delete(key);
    else this.waiting.set(key, rest);
  }

  private fail(reason: string): void {
    if (this.gone) return;
    this.gone = reason;
    const waiters = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const waiter of waiters) waiter.reject(new RequestFailure('unreachable', reason));
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const exited = await Promise.race([this.closed.then(() => true as const), timeout]);
    clearTimeout(timer);
    return exited;
  }

  private signal(name: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, name);
    } catch {
      this.child.kill(name);
    }
  }
}
