import type { Transport } from '../transport/types.js';

/**
 * Opens the audit's other connections to its target (CheckContext's `openTransport`). Over stdio each one is a new
 * process of the target, as slow to start as the first. `startSpare()` starts one ahead of its use, while the CLI
 * still waits for the audited connection's first answer; the first connection asked for is that one, started and
 * with nothing sent on it. A spare nobody asked for is closed by `closeSpare()`.
 */
export class ConnectionOpener {
  private spare: Promise<Transport> | undefined;

  constructor(private readonly create: () => Promise<Transport>) {}

  startSpare(): void {
    if (this.spare) return;
    this.spare = this.create().then((transport) => {
      // Its user starts it again and sees the same outcome; here a failure is only not left unhandled.
      transport.start().catch(() => undefined);
      return transport;
    });
    this.spare.catch(() => undefined);
  }

  readonly open = async (): Promise<Transport> => {
    const spare = this.spare;
    this.spare = undefined;
    return spare ?? this.create();
  };

  async closeSpare(): Promise<void> {
    const spare = this.spare;
    this.spare = undefined;
    const transport = await spare?.catch(() => undefined);
    await transport?.close();
  }
}
