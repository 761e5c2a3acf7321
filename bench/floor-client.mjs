// The round-trip floor of an audit: a bare client that sends the messages an audit sent (recorded by
// bench/record-hook.mjs) to the same server, back to back, each after the answer to the one before. Run as its own
// Node process, so that its wall time counts what the audit's does: Node's start-up, (stdio) spawning the server, the
// requests, the end. Usage: node bench/floor-client.mjs <recording.jsonl> (--stdio "<command line>" | --url <url>)
// Prints one JSON line: { sent, skipped, unanswered } (and over stdio the target processes it started). With
// --per-connection (stdio) it starts one target process for each the audit started, and sends each message to its own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Client } from 'undici';
import { floorMessages } from './floor.mjs';

const [recording, kind, target] = process.argv.slice(2);
const entries = readFileSync(recording, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
/** How long one message may wait for its answer before the floor moves on (and counts it unanswered). */
const ANSWER_WAIT_MS = 2000;

if (kind === '--stdio') {
  const { messages, skipped } = floorMessages(entries, 'stdio');
  const [command, ...args] = target.split(' ');
  // --per-connection: one process of the target for each the audit started (all spawned at once, as the audit starts
  // its extra ones early), each message sent to its own; otherwise every message goes to one process.
  const perConnection = process.argv.includes('--per-connection');
  const children = new Map();
  const childFor = (connection) => {
    const key = perConnection ? connection : 'one';
    let entry = children.get(key);
    if (!entry) {
      const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
      const waiting = new Map();
      createInterface({ input: child.stdout }).on('line', (line) => {
        let id;
        try {
          const message = JSON.parse(line);
          // The server's notifications and requests answer nothing of ours.
          if (message === null || typeof message !== 'object' || 'method' in message) return;
          id = message.id;
        } catch {
          return;
        }
        const done =
          waiting.get(JSON.stringify(id ?? null)) ??
          (id === null || id === undefined ? [...waiting.values()][0] : undefined);
        done?.();
      });
      entry = { child, waiting };
      children.set(key, entry);
    }
    return entry;
  };
  for (const { connection } of messages) childFor(connection);
  let unanswered = 0;
  for (const { text, id, connection } of messages) {
    const { child, waiting } = childFor(connection);
    if (id === undefined) {
      child.stdin.write(`${text}\n`);
      continue;
    }
    const key = JSON.stringify(id);
    await new Promise((resolve) => {
      const timer = setTimeout(() => ((unanswered += 1), resolve()), ANSWER_WAIT_MS);
      waiting.set(key, () => (clearTimeout(timer), resolve()));
      child.stdin.write(`${text}\n`);
    });
    waiting.delete(key);
  }
  await Promise.all(
    [...children.values()].map(({ child }) => {
      child.stdin.end();
      return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    }),
  );
  console.log(JSON.stringify({ sent: messages.length, skipped, unanswered, processes: children.size }));
} else {
  const { messages, skipped } = floorMessages(entries, 'http');
  const url = new URL(target);
  const client = new Client(url.origin);
  let unanswered = 0;
  let refused = 0;
  for (const { method, path, headers, body } of messages) {
    try {
      const response = await client.request({
        method,
        path,
        headers,
        body,
        headersTimeout: ANSWER_WAIT_MS,
        bodyTimeout: ANSWER_WAIT_MS,
      });
      await response.body.dump();
    } catch (error) {
      if (error?.code === 'UND_ERR_HEADERS_TIMEOUT' || error?.code === 'UND_ERR_BODY_TIMEOUT') unanswered += 1;
      else refused += 1;
    }
  }
  await client.close();
  console.log(JSON.stringify({ sent: messages.length - refused, skipped: skipped + refused, unanswered }));
}
