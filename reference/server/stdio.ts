import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ArrivalLog } from './arrival-log.js';
import { methodOf } from './arrival-log.js';
import { cancelledIdOf, requestIdOf } from './line-fields.js';
import { answerDelayMs, type AnswerLatency } from './latency.js';
import type { ActiveDefects } from './defects/active.js';
import type { StdioRules } from './defects/seams/transports.js';
import { handleText } from './handler.js';
import type { OutgoingMessage } from './messages.js';
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
   * Called once when the server is done: 0 on stdin EOF (never, when its rules keep it up), the defect's code for
   * exit-after-discover.
   */
  exit: (code: number) => void;
  onArrival?: ArrivalLog;
  /** Benchmarks: generated tools appended to the listing. */
  scale?: ListingScale;
}

/** The conforming rules, as the active defects change them. */
export function stdioRules(defects: ActiveDefects): StdioRules {
  const rules: StdioRules = { cancellationSilences: true };
  defects.at.stdioRules(rules);
  return rules;
}

/** Newline-delimited JSON-RPC over a pair of streams; stdout carries nothing but MCP messages. */
export function runStdioServer(options: StdioServerOptions): void {
  const { input, output, defects, log } = options;
  const rules = stdioRules(defects);
  const ctx: HandlerContext = {
    transport: 'stdio',
    defects,
    state: createServerState(),
    connection: String(process.pid),
    log,
    ...(options.scale ? { scale: options.scale } : {}),
    ...(options.revision ? { session: new InitializeSession(options.revision) } : {}),
  };
  const preamble = defects.at.stdoutPreamble();
  if (preamble !== undefined) output.write(preamble);
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

  /** What held calls still say once cancelled (HeldAnswer.saidAfterCancel), by request id. */
  const stillSpeaks = new Map<string, { afterMs: number; text: string }>();
  const speakAfterCancel = (key: string): void => {
    const said = stillSpeaks.get(key);
    if (said === undefined) return;
    stillSpeaks.delete(key);
    late += 1;
    setTimeout(() => {
      late -= 1;
      output.write(said.text);
      exitWhenDone();
    }, said.afterMs);
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

  const encode = defects.at.stdoutEncoder();
  const writeMessage = (message: OutgoingMessage) => {
    const encoded = encode ? encode(message) : undefined;
    if (encoded !== undefined) return void output.write(encoded);
    output.write(`${JSON.stringify(message)}\n`);
  };

  /** Requests this server sent the client, by id: the line that waits for the answer, and what to reply then. */
  const asked = new Map<string, { line: string; then: () => Reply }>();

  const respond = (line: string, method: string, reply: Reply): void => {
    const held = reply.kind === 'send' ? defects.at.stdioHeldAnswer(line, reply.messages) : undefined;
    const delayMs = answerDelayMs(method, reply, options) + (held !== undefined ? held.delayMs : 0);
    if (delayMs > 0 && reply.kind === 'send' && reply.exitCode === undefined) {
      const text = linesOf(reply.messages);
      const key = requestIdOf(line);
      if (held?.saidAfterCancel) stillSpeaks.set(key, held.saidAfterCancel);
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
    if (method === 'notifications/cancelled' && rules.cancellationSilences) {
      dropLateAnswer(cancelledIdOf(line));
      speakAfterCancel(cancelledIdOf(line));
    }
    respond(line, method, handleText(line, ctx));
  });
  lines.on('close', () => {
    if (rules.stayUpAfterEof !== undefined) return log(`stdin closed; staying up (${rules.stayUpAfterEof})`);
    stop(0);
  });
}

const linesOf = (messages: readonly OutgoingMessage[]): string =>
  messages.map((message) => `${JSON.stringify(message)}\n`).join('');
