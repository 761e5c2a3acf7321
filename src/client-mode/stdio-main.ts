import { readFileSync } from 'node:fs';
import { isObject } from '../core/jsonrpc.js';
import { InitializeStdio } from './initialize-stdio.js';
import { Recorder } from './recorder.js';
import { ScriptedServer } from './scripted-server.js';
import type { ScriptedSetup } from './scripted-server.js';
import { sessionFiles } from './session.js';
import { slowProgress, SLOW_PROGRESS_EVERY_MS } from './slow-answer.js';
import type { SeenMessage } from '../model/client-observation.js';

/** A stdin line longer than this is recorded truncated and not answered. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * `mcp-tools-conformance scripted-server --session <dir>`: the scripted server on stdio, started by the client under
 * test from MCP_CONFORMANCE_SERVER_COMMAND. Newline-delimited JSON-RPC; blank lines are skipped.
 */
export function scriptedServerMain(argv: readonly string[]): void {
  const at = argv.indexOf('--session');
  const dir = at >= 0 ? argv[at + 1] : undefined;
  if (!dir) {
    process.stderr.write('scripted-server: --session <dir> is required (client mode starts this for you)\n');
    process.exitCode = 2;
    return;
  }
  const files = sessionFiles(dir);
  const setup = JSON.parse(readFileSync(files.setup, 'utf8')) as ScriptedSetup;
  const server = new ScriptedServer(setup);
  const recorder = new Recorder(setup.timeOrigin, files.seen);
  // Requests whose answer is still due when stdin ends: reported unanswered, so the audit sees them.
  const delayed = new Set<SeenMessage>();
  const initializeWire = new InitializeStdio(setup, recorder, (message) =>
    process.stdout.write(JSON.stringify(message) + '\n'),
  );
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const line = (bytes: Buffer) => {
    if (bytes.toString('latin1').trim() === '') return;
    const entry = recorder.receive(bytes, 'stdio', `stdio process ${process.pid}`);
    if (entry.message !== undefined && initializeWire.claims(entry.message)) return void initializeWire.line(entry);
    const answer = entry.message === undefined ? undefined : server.handle(entry.message);
    if (answer?.listen) {
      recorder.streaming(entry);
      const send = (message: Record<string, unknown>) => {
        recorder.notified(entry.connection, message);
        process.stdout.write(JSON.stringify(message) + '\n');
      };
      send(server.listenOpened(answer.listen.id, answer.listen.notifications, send));
      return;
    }
    const cancelled =
      isObject(entry.message) && entry.message.method === 'notifications/cancelled' && isObject(entry.message.params)
        ? entry.message.params.requestId
        : undefined;
    if (cancelled !== undefined) server.listenClosed(cancelled);
    if (answer?.stderr) process.stderr.write(`${answer.stderr}\n`);
    const progress =
      answer?.slow?.progressToken === undefined ? undefined : slowProgressLines(answer.slow.progressToken);
    const reply = () => {
      clearInterval(progress);
      delayed.delete(entry);
      recorder.answered(entry, answer?.body === undefined ? undefined : { body: answer.body });
      if (answer?.body !== undefined) process.stdout.write(JSON.stringify(answer.body) + '\n');
    };
    if (answer?.delayMs) {
      delayed.add(entry);
      setTimeout(reply, answer.delayMs);
    } else reply();
  };
  process.stdin.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl));
      line(Buffer.concat(pending).subarray(0, MAX_LINE_BYTES));
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length && pendingBytes < MAX_LINE_BYTES) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
    }
  });
  process.stdin.on('end', () => {
    if (pending.length > 0) line(Buffer.concat(pending));
    for (const entry of delayed) recorder.streaming(entry);
    process.exit(0);
  });
  process.stdout.on('error', () => process.exit(0));
}

/** slow_answer's progress, written to stdout until its answer is due. */
function slowProgressLines(token: string | number): NodeJS.Timeout {
  let sent = 0;
  return setInterval(
    () => process.stdout.write(JSON.stringify(slowProgress(token, ++sent)) + '\n'),
    SLOW_PROGRESS_EVERY_MS,
  );
}
