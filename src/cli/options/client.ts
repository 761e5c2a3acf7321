import { SCENARIOS, type Scenario } from '../../client-mode/scenarios.js';
import { globToRegExp, parsePatterns } from '../../runner/registry.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './commands.js';
import type { ParsedArgs } from './table.js';

/** The client command: the client under test, the transport it is offered and the scenarios selected. */
export interface ClientOptions {
  command: string;
  transport: 'http' | 'stdio';
  scenarios: Scenario[];
}

/** The client command's options; they go with it only, and it takes no server target. */
export function clientOptions(command: Command, args: ParsedArgs): ClientOptions | undefined {
  if (command !== 'client') {
    const given = (['command', 'scenario', 'transport'] as const).find((name) => args[name] !== undefined);
    if (given)
      throw new UsageError(
        `--${given} goes with the client command (mcp-tools-conformance client --command "<client>")`,
      );
    return undefined;
  }
  const target = (['stdio', 'url', 'from-snapshot', 'reference-server', 'lock'] as const).find(
    (name) => args[name] !== undefined && args[name] !== false,
  );
  if (target)
    throw new UsageError(
      `--${target} names a server to audit; the client command audits the --command client against its own ` +
        `scripted server`,
    );
  const ofServer = (
    [
      'env',
      'header',
      'allow-tools',
      'allow-all-tools',
      'skip-tools',
      'sandbox',
      'revisions',
      'snapshot-out',
      'list-changed-trigger',
    ] as const
  ).find((name) => args[name] !== undefined && args[name] !== false);
  if (ofServer)
    throw new UsageError(
      `--${ofServer} goes with a server audit (--stdio or --url), not the client command: the client runs with ` +
        `the environment it is started in`,
    );
  if (args.list) return { command: '', transport: 'http', scenarios: [...SCENARIOS] };
  if (args.command === undefined || args.command.trim() === '')
    throw new UsageError('client needs --command "<client command line>"');
  const patterns = parsePatterns(args.scenario?.map(String));
  const scenarios =
    patterns.length === 0 ? [...SCENARIOS] : SCENARIOS.filter((s) => patterns.some((p) => globToRegExp(p).test(s)));
  const unmatched = patterns.filter((p) => !SCENARIOS.some((s) => globToRegExp(p).test(s)));
  if (unmatched.length > 0)
    throw new UsageError(
      `no scenario matches ${unmatched.map((u) => JSON.stringify(u)).join(', ')} (scenarios: ${SCENARIOS.join(', ')})`,
    );
  return { command: args.command, transport: args.transport ?? 'http', scenarios };
}
