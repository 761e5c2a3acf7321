import { rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCanary } from '../canary.js';
import { runClient, type ClientRun } from '../client-process.js';
import { startHttpFront } from '../http-front.js';
import { InitializeHttpFront } from '../initialize-http-front.js';
import { InitializeScriptedServer } from '../initialize-scripted-server.js';
import { MAX_SEEN_MESSAGES, Recorder } from '../recorder.js';
import { ScriptedServer, type ScriptedSetup } from '../scripted-server.js';
import { sessionFiles } from '../session.js';
import { CALL_TIMEOUT_MS, ENV_CALL_TIMEOUT, ENV_SERVER_COMMAND, ENV_URL } from '../driver-contract.js';
import { isObject } from '../../core/jsonrpc.js';
import type { ClientObservations, DriverLine, SeenMessage, SentNotification } from '../../model/client-observation.js';
import { agreedClientWire } from './revision.js';
import type { ClientAuditConfig } from '../../engine/config.js';

const NOISE_KEPT = 20;
/** The call timeout of the driver contract, handed to the driver. */
const CALL_TIMEOUT_ENV = { [ENV_CALL_TIMEOUT]: String(CALL_TIMEOUT_MS) };

/** Runs the client against the scripted server and collects everything the checks judge. */
export async function observe(config: ClientAuditConfig): Promise<ClientObservations> {
  const canary = await startCanary();
  const setup: ScriptedSetup = {
    scenarios: config.scenarios,
    canaryOrigin: canary.origin,
    timeOrigin: Date.now(),
    version: config.toolVersion,
  };
  const server = new ScriptedServer(setup);
  const initializeServer = new InitializeScriptedServer(setup);
  let run: ClientRun;
  let messages: SeenMessage[];
  let sentNotifications: SentNotification[];
  let notKept: number;
  if (config.transport === 'http') {
    const recorder = new Recorder(setup.timeOrigin);
    const front = await startHttpFront(server, recorder, new InitializeHttpFront(initializeServer, recorder));
    try {
      run = await runClient(
        config.command,
        [front.url],
        { [ENV_URL]: front.url, ...CALL_TIMEOUT_ENV },
        config.deadline,
      );
    } finally {
      await front.close();
    }
    messages = recorder.seen;
    sentNotifications = recorder.sent;
    notKept = recorder.dropped;
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-client-'));
    const files = sessionFiles(dir);
    // An interrupted run (Ctrl-C exits at once) still removes the session folder.
    const removeOnExit = () => rmSync(dir, { recursive: true, force: true });
    process.once('exit', removeOnExit);
    try {
      await writeFile(files.setup, JSON.stringify(setup));
      run = await runClient(
        config.command,
        [],
        { [ENV_SERVER_COMMAND]: config.serverCommand(dir), ...CALL_TIMEOUT_ENV },
        config.deadline,
      );
      ({ messages, sentNotifications, notKept } = await readSeen(files.seen));
    } finally {
      process.removeListener('exit', removeOnExit);
      await rm(dir, { recursive: true, force: true });
    }
  }
  await canary.close();
  const { driverLines, listings, stdoutNoise } = readDriverLines(run.stdoutLines);
  const agreed = agreedClientWire(messages);
  const tools = agreed.initialize ? initializeServer.tools(agreed.wire) : server.tools;
  const offered = Object.fromEntries(tools.map((t) => [String(t.name), t]));
  return {
    transport: config.transport,
    wire: agreed.wire,
    wireReason: agreed.reason,
    offered,
    messages,
    messagesNotKept: notKept,
    sentNotifications,
    canaryHits: canary.hits,
    driverLines,
    listings,
    stdoutNoise,
    stderrTail: run.stderr
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-40),
    exit: run.exit,
    durationMs: run.durationMs,
  };
}

/** The stdio server processes' reports, in order of arrival (each process appended its own as it answered). */
async function readSeen(
  file: string,
): Promise<{ messages: SeenMessage[]; sentNotifications: SentNotification[]; notKept: number }> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines = text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as SeenMessage | { sent: SentNotification }];
    } catch {
      return [];
    }
  });
  const sentNotifications = lines.flatMap((l) => ('sent' in l ? [l.sent] : [])).sort((a, b) => a.t - b.t);
  const seen = lines.flatMap((l) => ('sent' in l ? [] : [l])).sort((a, b) => a.t - b.t);
  const messages = seen.slice(0, MAX_SEEN_MESSAGES);
  messages.forEach((entry, index) => (entry.seq = index + 1));
  return { messages, sentNotifications, notKept: seen.length - messages.length };
}

function readDriverLines(lines: readonly string[]): {
  driverLines: DriverLine[];
  listings: number;
  stdoutNoise: string[];
} {
  const driverLines: DriverLine[] = [];
  let listings = 0;
  const stdoutNoise: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (isObject(parsed) && typeof parsed.listed === 'number' && Object.keys(parsed).length === 1) {
      listings += 1;
    } else if (isObject(parsed) && typeof parsed.tool === 'string' && ('result' in parsed || 'error' in parsed)) {
      driverLines.push({
        tool: parsed.tool,
        outcome: 'error' in parsed ? 'error' : 'result',
        value: 'error' in parsed ? parsed.error : parsed.result,
      });
    } else if (stdoutNoise.length < NOISE_KEPT) {
      stdoutNoise.push(line.slice(0, 300));
    }
  }
  return { driverLines, listings, stdoutNoise };
}

/** Why the client could not be audited (exit 3), or undefined when it ran and exited 0 having sent something. */
export function abortReason(observed: ClientObservations): string | undefined {
  const { exit, messages } = observed;
  if (exit.kind === 'not-started') return exit.message;
  if (exit.kind === 'timed-out')
    return 'the client did not exit before the --max-duration budget ran out and was killed';
  if (exit.code !== 0) return `the client exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}`;
  if (messages.length === 0) return 'the client exited without sending a message to the scripted server';
  return undefined;
}
