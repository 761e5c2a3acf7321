import { spawn, type ChildProcess } from 'node:child_process';
import type { JsonRpcId } from '../core/jsonrpc.js';
import { killGroup, trackChild } from './children.js';
import { splitCommandLine } from './command-line.js';
import { stderrExcerpt } from './stderr-excerpt.js';
import { RequestGate } from './request-gate.js';
import { SingleChannel } from './single-channel.js';
import { DEFAULT_MAX_MESSAGE_BYTES, nextSeq } from './sequence.js';
import { decodeUtf8 } from './utf8.js';
import {
  TargetNotStartedError,
  type ListenStream,
  type InputEnd,
  type SendOptions,
  type ServerRequestResponder,
  type Transport,
} from './types.js';
import type { Exchange, StrayEvent } from '../model/exchange.js';

export interface StdioTransportOptions {
  command: string;
  timeoutMs: number;
  maxMessageBytes?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Shared by every connection (process) of a run (--max-rps); defaults to a private one with no cap. */
  gate?: RequestGate;
  /** How to start the command instead (--sandbox: inside the audit's sandbox); env and cwd then come from here. */
  launch?: () => ProcessLaunch;
}

/** A process to start: the program, its arguments, environment and working directory. */
export interface ProcessLaunch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

const STDERR_KEEP = 64 * 1024;
/** The start of stderr is kept apart from its tail: a start-up error stays visible however much follows it. */
const STDERR_START_KEEP = 8 * 1024;
/** After the target exits, how long we wait for the rest of its stdout before judging what is still pending. */
const STDOUT_DRAIN_MS = 250;

/** Newline-delimited JSON-RPC over a spawned target's stdin/stdout (spec basic/transports/stdio). */
export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  readonly description: string;
  private child: ChildProcess | undefined;
  private readonly channel = new SingleChannel((answer) => this.writeLine(JSON.stringify(answer.response)));
  private stderrText = '';
  private stderrStart = '';
  private stderrSeen = 0;
  /** The stdout line being received, as raw bytes in pieces (joined and decoded once, when its newline arrives). */
  private lineParts: Buffer[] = [];
  private lineBytes = 0;
  /** The rest of an oversized line is skipped up to its newline. */
  private discardingLine = false;
  /** Set once the target wrote anything to stdout; until then a request gets `startupMs` more (allowStartup). */
  private heard = false;
  private startupMs = 0;
  /** Bytes of a line the target left unterminated when its stdout ended. */
  private unterminatedBytes = 0;
  private corked = false;
  private starting: Promise<void> | undefined;
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
      throw new TargetNotStartedError(`cannot parse --stdio command: ${(error as Error).message}`);
    }
    if (argv.length === 0) throw new TargetNotStartedError('the --stdio command is empty');
    const launch = this.options.launch?.() ?? {
      file: argv[0]!,
      args: argv.slice(1),
      env: this.options.env ?? process.env,
      cwd: this.options.cwd,
    };
    const child = spawn(launch.file, launch.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: launch.env,
      cwd: launch.cwd,
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
        reject(
          new TargetNotStartedError(
            `cannot start '${argv[0]}': ${(error as NodeJS.ErrnoException).code ?? error.message}`,
          ),
        ),
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
    const unusable = this.channel.unusable;
    if (unusable) {
      exchange.failure = unusable;
      return exchange;
    }
    this.writeLine(JSON.stringify(message));
    if (options.notification || id === undefined) return exchange;
    const startup = this.heard ? 0 : this.startupMs;
    return this.channel.await(exchange, id, (options.timeoutMs ?? this.options.timeoutMs) + startup, started);
  }

  allowStartup(ms: number): void {
    this.startupMs = ms;
  }

  async listen(message: unknown, id: JsonRpcId, _options: SendOptions = {}): Promise<ListenStream> {
    await this.gate.acquire();
    const exchange: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: message,
      notifications: [],
    };
    const listen = this.channel.listen(exchange, id, () => {
      const cancel = {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'subscription no longer needed' },
      };
      this.writeLine(JSON.stringify(cancel));
    });
    if (!listen.ended) this.writeLine(JSON.stringify(message));
    return listen;
  }

  strays(): readonly StrayEvent[] {
    return this.channel.strays();
  }

  answerServerRequests(responder: ServerRequestResponder): void {
    this.channel.answerServerRequests(responder);
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
    this.channel.failAll({ kind: 'target-exited', message: 'transport closed' });
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
    this.heard = true;
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
      // Dropped, and blamed on the oldest request waiting.
      this.channel.oversized(this.maxMessageBytes, 'a line');
    }
  }

  private endLine(): void {
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    const decoded = decodeUtf8(
      this.lineParts.length === 1 ? this.lineParts[0]! : Buffer.concat(this.lineParts, this.lineBytes),
    );
    const line = decoded.text.replace(/\r$/, '');
    this.lineParts = [];
    this.lineBytes = 0;
    if (line.trim() !== '') this.channel.receive(line, !decoded.valid);
  }

  /** A line cut off by the end of stdout (a target that died mid-message) is noise on stdout, and said so on exit. */
  private onStdoutEnd(): void {
    const bytes = Buffer.concat(this.lineParts);
    const rest = decodeUtf8(bytes).text;
    this.lineParts = [];
    if (rest.trim() === '') return;
    this.unterminatedBytes = bytes.length;
    this.channel.noise(rest);
  }

  private onStderr(chunk: Buffer): void {
    const text = chunk.toString('utf8');
    if (this.stderrStart.length < STDERR_START_KEEP)
      this.stderrStart += text.slice(0, STDERR_START_KEEP - this.stderrStart.length);
    this.stderrSeen += text.length;
    this.stderrText += text;
    if (this.stderrText.length > STDERR_KEEP) this.stderrText = this.stderrText.slice(-STDERR_KEEP);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const tail = stderrExcerpt(this.stderr()).join(' | ');
    const cut =
      this.unterminatedBytes > 0
        ? ` in the middle of a message (${this.unterminatedBytes} bytes without a newline)`
        : '';
    this.channel.end({
      kind: 'target-exited',
      message: `target exited with ${how}${cut}${tail ? ` (stderr: ${tail.slice(0, 500)})` : ''}`,
    });
  }
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
