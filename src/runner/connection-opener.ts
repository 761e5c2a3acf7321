import type { Transport } from '../transport/types.js';

/**
 * Opens the audit's other connections to its target (CheckContext's `openTransport`). Over stdio each one is a new
 * process of the target, as slow to start as the first. `startSpare()` starts one ahead of its use, while the CLI
 * still waits for the audited connection's first answer; the first connection asked for is that one, started and
 * with nothing sent on it. A spare nobody asked for is closed by `closeSpare()`.
 */
export class ConnectionOpener {
  private spare: Promise<Transport> | undefined;
  private taken = false;

  constructor(private readonly create: () => Promise<Transport>) {}

  startSpare(): void {
    if (this.spare) return;
    const spare = this.create().then((transport) => {
      // Its user starts it again and sees the same outcome; here a failure is only not left unhandled.
      transport.start().catch(() => undefined);
      return transport;
    });
    spare.catch(() => undefined);
    this.spare = spare;
  }

  readonly open = async (): Promise<Transport> => {
    if (this.spare && !this.taken) {
      this.taken = true;
      return this.spare;
    }
    return this.create();
  };

  async closeSpare(): Promise<void> {
    if (!this.spare || this.taken) return;
    this.taken = true;
    const transport = await this.spare.catch(() => undefined);
    await transport?.close();
  }
}
