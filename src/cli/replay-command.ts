import { shellQuote } from '../property/replay.js';
import type { RunReport } from '../model/report.js';
import type { CliOptions } from './args.js';
import { DEFAULT_TIMEOUT_MS } from './options/table.js';

/**
 * The start of a replay line: the same target, wire and timeout. Secrets stay out (the target is shown redacted, and
 * --header values are placeholders), so a line for a target that needs them must be completed by hand.
 */
export function replayCommandLine(options: CliOptions, target: RunReport['target']): string {
  const words = ['mcp-tools-conformance'];
  if (target.transport === 'http' && target.url) words.push('--url', shellQuote(target.url));
  else if (target.command) words.push('--stdio', shellQuote(target.command));
  for (const name of Object.keys(options.headers)) words.push('--header', shellQuote(`${name}: …`));
  if (options.protocolVersion !== 'auto') words.push('--protocol-version', options.protocolVersion);
  if (options.timeoutMs !== DEFAULT_TIMEOUT_MS) words.push('--timeout', String(options.timeoutMs));
  return words.join(' ');
}
