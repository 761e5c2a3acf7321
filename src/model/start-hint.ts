// What a start-up failure of a target or a client command means, for whoever reports it: the audit's stderr lines
// (src/cli/abort-lines.ts) and a fleet's outcome of an entry (src/fleet/run/outcome.ts).

/**
 * A hint for a start-up failure we can explain: the command is not there (a server's --stdio, a client's --command).
 */
export function startHint(reason: string): string | undefined {
  const missing =
    /cannot start '([^']+)': ENOENT/.exec(reason) ?? /could not be started: spawn (\S+) ENOENT/.exec(reason);
  if (missing)
    return `'${missing[1]}' was not found: is it installed and on PATH? Give its full path, or start it through npx`;
  if (/cannot start '[^']+': EACCES|could not be started: spawn \S+ EACCES/.test(reason))
    return 'the command is not executable (check its permissions, or run it through its interpreter)';
  if (/exited with code 127\b/.test(reason))
    return 'exit code 127: the shell or the target could not find a command it runs';
  return undefined;
}
