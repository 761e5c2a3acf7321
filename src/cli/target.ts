import { fileURLToPath } from 'node:url';
import type { Transport } from '../transport/types.js';
import type { RunReport } from '../report/types.js';
import type { CliOptions } from './args.js';
import { redactCommandLine, redactUrl } from './redact.js';

/** The bundled reference server, audited when no target is given. */
export function referenceServerCommand(): string {
  const script = fileURLToPath(new URL('../reference-server/main.js', import.meta.url));
  return [process.execPath, script].map(quote).join(' ');
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface Target {
  transport: Transport;
  description: RunReport['target'];
  isReference: boolean;
}

/** Transports are imported on demand: undici only loads when the target is HTTP. */
export async function createTarget(options: CliOptions): Promise<Target> {
  if (options.url) {
    const { HttpTransport } = await import('../transport/http.js');
    return {
      transport: new HttpTransport({ url: options.url, headers: options.headers, timeoutMs: options.timeoutMs }),
      description: { transport: 'http', url: redactUrl(options.url) },
      isReference: false,
    };
  }
  const command = options.stdio ?? referenceServerCommand();
  const { StdioTransport } = await import('../transport/stdio.js');
  return {
    transport: new StdioTransport({ command, timeoutMs: options.timeoutMs }),
    description: { transport: 'stdio', command: redactCommandLine(command) },
    isReference: options.stdio === undefined,
  };
}
