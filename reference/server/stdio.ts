import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ArrivalLog } from './arrival-log.js';
import { methodOf } from './arrival-log.js';
import { asksForLogs, callsTool, cancelledIdOf, requestIdOf } from './line-fields.js';
import { answerDelayMs, type AnswerLatency } from './latency.js';
import type { ActiveDefects } from './defects/active.js';
import { handleText } from './handler.js';
import { notification, type OutgoingMessage } from './messages.js';
import type { HandlerContext, Reply } from './reply.js';
import type { ListingScale } from './scale-tools.js';
import type { InitializeRevision } from './revisions.js';
import { createServerState } from './server-state.js';
import { keepNotesFile } from './defects/effect-files.js';
import { InitializeSession } from './session.js';

/** Benchmarks (AnswerLatency): tools/call answers are written late; other lines are answered meanwhile. */
export interface StdioServerOptions extends AnswerLatency {
  input: Readable;
  output: Writable;
  defects: ActiveDefects;
  /** Serve this initialize revision (and older ones): the process is one session. Absent: 2026-07-28. */
  revision?: InitializeRevision;
  log: (line: string) => void;
  /**
   * Called once when the server is done: 0 on stdin EOF (never, under ignore-stdin-eof), the defect's code for
   * exit-after-discover.
   */
  exit: (code: number) => void;
  onArrival?: ArrivalLog;
  /** Benchmarks: generated tools appended to the listing. */
  scale?: ListingScale;
}

/**
 * The answer-after-cancel, progress-after-cancel and log-after-cancel defects: the calls they slow down answer this
 * late (the audits that prove them run with --timeout 2000, so the call is cancelled first).
 */
const SLOW_ANSWER_MS = 4500;
/**
 * The progress-after-cancel and log-after-cancel defects: how long after the cancellation the cancelled call still
 * speaks.
 */
const STILL_SPEAKS_AFTER_MS = 300;

/** Newline-delimited JSON-RPC over a pair of streams; stdout carries nothing but MCP messages. */
export function runStdioServer(options: StdioServerOptions): void {
  const { input, output, defects, log } = options;
  const ctx: HandlerContext = {
    transport: 'stdio',
    defects,
    state: createServerState(),
    connection: String(process.pid),
    log,
    ...(options.scale ? { scale: options.scale } : {}),
    ...(options.revision ? { session: new InitializeSession(options.revision) } : {}),
  };
  if (defects.has('stdout-noise')) output.write('reference server ready\n');
  keepNotesFile(defects);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let stopped = false;
  /** Delayed tools/call answers not yet written (--tool-latency-ms, --error-latency-ms): an EOF waits for them. */
  let late = 0;
  let exitCode: number | undefined;
  const exitWhenDone = (): void => {
    if (exitCode !== undefined && late === 0) output.write('', () => options.exit(exitCode!));
  };
  const stop = (code: number): void => {
    if (stopped) return;
    stopped = true;
    lines.close();
    exitCode = code;
    exitWhenDone();
  };

  /**
   * Defects progress-after-cancel, log-after-cancel: a cancelled slow call drops its answer, yet still speaks a little
   * later.
   */
  const stillSpeaks = new Map<string, string>();
  const speakAfterCancel = (key: string): void => {
    const text = stillSpeaks.get(key);
    if (text === undefined) return;
    stillSpeaks.delete(key);
    late += 1;
    setTimeout(() => {
      late -= 1;
      output.write(text);
      exitWhenDone();
    }, STILL_SPEAKS_AFTER_MS);
  };

  /**
   * Delayed answers by request id: a notifications/cancelled for one drops it (the cancelled call says nothing more).
   */
  const delayed = new Map<string, NodeJS.Timeout>();
  const dropLateAnswer = (key: string): void => {
    const timer = delayed.get(key);
    if (!timer) return;
    clearTimeout(timer);
    delayed.delete(key);
    late -= 1;
    exitWhenDone();
  };

  /** Defect latin1-response: the first server/discover answer is written in ISO-8859-1, "café" in its instructions. */
  let latin1Pending = defects.has('latin1-response');
  const writeMessage = (message: OutgoingMessage) => {
    const result = message.result as Record<string, unknown> | undefined;
    if (latin1Pending && result && 'supportedVersions' in result && typeof result.instructions === 'string') {
      latin1Pending = false;
      const text = JSON.stringify({
        ...message,
        result: { ...result, instructions: `${result.instructions} Served from a caf\u00e9.` },
      });
      output.write(Buffer.from(`${text}\n`, 'latin1'));
      return;
    }
    output.write(`${JSON.stringify(message)}\n`);
  };

  /** Requests this server sent the client, by id: the line that waits for the answer, and what to reply then. */
  const asked = new Map<string, { line: string; then: () => Reply }>();

  const respond = (line: string, method: string, reply: Reply): void => {
    const afterCancel = spokenAfterCancel(line, reply, defects);
    const slow = (defects.has('answer-after-cancel') && callsTool(line, 'get_time')) || afterCancel !== undefined;
    const delayMs = answerDelayMs(method, reply, options) + (slow ? SLOW_ANSWER_MS : 0);
    if (delayMs > 0 && reply.kind === 'send' && reply.exitCode === undefined) {
      const text = linesOf(reply.messages);
      const key = requestIdOf(line);
      if (afterCancel !== undefined) stillSpeaks.set(key, afterCancel);
      late += 1;
      delayed.set(
        key,
        setTimeout(() => {
          delayed.delete(key);
          stillSpeaks.delete(key);
          late -= 1;
          output.write(text);
          exitWhenDone();
        }, delayMs),
      );
      return;
    }
    if (reply.kind === 'raw') output.write(`${reply.text}\n`);
    if (reply.kind === 'batch') {
      for (const message of reply.before) writeMessage(message);
      if (reply.responses.length > 0) output.write(`${JSON.stringify(reply.responses)}\n`);
      return;
    }
    if (reply.kind === 'ask') {
      asked.set(JSON.stringify(reply.request.id), { line, then: reply.then });
      writeMessage(reply.request);
      return;
    }
    if (reply.kind === 'listen') {
      if (reply.ack) output.write(`${JSON.stringify(reply.ack)}\n`);
      reply.open((message) => output.write(`${JSON.stringify(message)}\n`));
      return;
    }
    if (reply.kind !== 'send') return;
    for (const message of reply.messages) writeMessage(message);
    if (reply.exitCode !== undefined) stop(reply.exitCode);
  };

  lines.on('line', (line) => {
    if (stopped || line.trim() === '') return;
    const method = methodOf(line);
    options.onArrival?.(method);
    const waiting = method === '-' ? asked.get(requestIdOf(line)) : undefined;
    if (waiting) {
      // The client answered our request: whatever it said, the request that waited for it is served now.
      asked.delete(requestIdOf(line));
      respond(waiting.line, methodOf(waiting.line), waiting.then());
      return;
    }
    if (method === 'notifications/cancelled' && !defects.has('answer-after-cancel')) {
      dropLateAnswer(cancelledIdOf(line));
      speakAfterCancel(cancelledIdOf(line));
    }
    respond(line, method, handleText(line, ctx));
  });
  lines.on('close', () => {
    if (defects.has('ignore-stdin-eof')) return log('stdin closed; staying up (defect ignore-stdin-eof)');
    stop(0);
  });
}

const linesOf = (messages: readonly OutgoingMessage[]): string =>
  messages.map((message) => `${JSON.stringify(message)}\n`).join('');

/**
 * Defects progress-after-cancel and log-after-cancel: the slow tools/call they make, and what it still sends once it
 * is cancelled (its progress notifications; a log message about the cancellation, for a call that asked for logs).
 */
function spokenAfterCancel(line: string, reply: Reply, defects: ActiveDefects): string | undefined {
  if (reply.kind !== 'send' || methodOf(line) !== 'tools/call') return undefined;
  const progress = reply.messages.filter((m) => m.method === 'notifications/progress');
  if (defects.has('progress-after-cancel') && progress.length > 0) return linesOf(progress);
  if (defects.has('log-after-cancel') && asksForLogs(line)) {
    return linesOf([
      notification('notifications/message', {
        level: 'warning',
        logger: 'tools',
        data: 'call cancelled by the client; cleaning up',
      }),
    ]);
  }
  return undefined;
}
