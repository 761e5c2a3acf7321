import { isObject } from '../core/jsonrpc.js';
import type { SeenMessage } from '../model/client-observation.js';
import { InitializeScriptedServer, InitializeSession, type Sink } from './initialize-scripted-server.js';
import type { Recorder } from './recorder.js';
import type { ScriptedSetup } from './scripted-server.js';

/**
 * One stdio scripted-server process on the initialize wire: from the client's `initialize` on, this process is one
 * session of the initialize scripted server; what the server says on its own or in the middle of a call goes to stdout.
 */
export class InitializeStdio {
  private readonly server: InitializeScriptedServer;
  private readonly session = new InitializeSession(`stdio process ${process.pid}`);
  private active = false;

  constructor(
    setup: ScriptedSetup,
    private readonly recorder: Recorder,
    private readonly write: (message: unknown) => void,
  ) {
    this.server = new InitializeScriptedServer(setup);
  }

  /** Whether the message is this wire's: an `initialize`, or anything once one came. */
  claims(message: unknown): boolean {
    const messages = Array.isArray(message) ? message : [message];
    if (messages.some((m) => isObject(m) && m.method === 'initialize')) this.active = true;
    return this.active;
  }

  async line(entry: SeenMessage): Promise<void> {
    const out: Sink = (message) => {
      this.recorder.notified(entry.connection, message);
      this.write(message);
    };
    this.session.standalone = out;
    const answer = await this.server.handle(this.session, entry.message, out);
    if (answer.stderr) process.stderr.write(`${answer.stderr}\n`);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    this.recorder.answered(entry, answer.body === undefined ? undefined : { body: answer.body });
    if (answer.body !== undefined) this.write(answer.body);
  }
}
