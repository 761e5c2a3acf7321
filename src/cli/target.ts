import { fileURLToPath } from 'node:url';
import type { RequestGate } from '../transport/request-gate.js';
import type { Transport } from '../transport/types.js';
import type { ProcessLaunch } from '../transport/stdio.js';
import type { RunReport } from '../model/report.js';
import { readFile } from 'node:fs/promises';
import type { CliOptions } from './args.js';
import { UsageError } from './usage-error.js';
import { parseSnapshot, type Snapshot } from '../snapshot/format.js';
import { ReplayTransport } from '../snapshot/replay-transport.js';
import { redactCommandLine, redactUrl } from './redact.js';

/** The bundled reference server, audited when no target is given. */
export function referenceServerCommand(): string {
  const script = fileURLToPath(new URL('../../reference-server/main.js', import.meta.url));
  return [process.execPath, script].map(quote).join(' ');
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface Target {
  transport: Transport;
  description: RunReport['target'];
  isReference: boolean;
  /** Set for --from-snapshot: the listing to replay. */
  snapshot?: Snapshot;
}

/**
 * Transports are imported on demand: undici only loads when the target is HTTP. Pass the run's one gate to every
 * call so that all connections share --max-rps and any Retry-After.
 */
export async function createTarget(
  options: CliOptions,
  gate?: RequestGate,
  launch?: () => ProcessLaunch,
): Promise<Target> {
  if (options.fromSnapshot) {
    const file = options.fromSnapshot;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(
        `cannot read --from-snapshot ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    let snapshot: Snapshot;
    try {
      snapshot = parseSnapshot(text, file);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    return {
      transport: new ReplayTransport(snapshot, file),
      description: { transport: 'snapshot', file },
      isReference: false,
      snapshot,
    };
  }
  if (options.url) {
    const { HttpTransport } = await import('../transport/http.js');
    return {
      transport: new HttpTransport({
        url: options.url,
        headers: options.headers,
        timeoutMs: options.timeoutMs,
        maxMessageBytes: options.maxMessageBytes,
        connections: options.httpConnections,
        httpSseConnections: options.httpConnectionsGiven ?? 1,
        ...(gate ? { gate } : {}),
      }),
      description: { transport: 'http', url: redactUrl(options.url) },
      isReference: false,
    };
  }
  const command = options.stdio ?? referenceServerCommand();
  const { StdioTransport } = await import('../transport/stdio.js');
  return {
    transport: new StdioTransport({
      command,
      timeoutMs: options.timeoutMs,
      maxMessageBytes: options.maxMessageBytes,
      ...(Object.keys(options.env).length > 0 ? { env: { ...process.env, ...options.env } } : {}),
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(gate ? { gate } : {}),
      ...(launch ? { launch } : {}),
    }),
    description: { transport: 'stdio', command: redactCommandLine(command) },
    isReference: options.stdio === undefined,
  };
}
