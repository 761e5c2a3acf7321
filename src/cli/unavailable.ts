import type { RunReport } from '../model/report.js';

/** A hint for a start-up failure we can explain: the command is not there (a server's --stdio, a client's --command). */
export function startHint(reason: string): string | undefined {
  const missing = /cannot start '([^']+)': ENOENT/.exec(reason) ?? /could not be started: spawn (\S+) ENOENT/.exec(reason);
  if (missing) return `'${missing[1]}' was not found: is it installed and on PATH? Give its full path, or start it through npx`;
  if (/cannot start '[^']+': EACCES|could not be started: spawn \S+ EACCES/.test(reason)) return 'the command is not executable (check its permissions, or run it through its interpreter)';
  if (/exited with code 127\b/.test(reason)) return 'exit code 127: the shell or the target could not find a command it runs';
  return undefined;
}

/**
 * The lines for stderr when the audit stopped because of the target: one line that says why, a hint when there is one,
 * and the target's own stderr excerpt. `report` is the scrubbed report: nothing secret is printed.
 */
export function abortLines(report: Pick<RunReport, 'aborted'>, ranAtAll: boolean): string[] {
  const aborted = report.aborted;
  if (!aborted) return [];
  const hint = startHint(aborted.reason);
  // The stderr excerpt follows on lines of its own: the reason's inline copy of it is left out.
  const reason = aborted.targetStderr ? aborted.reason.replace(/ \(stderr: [^]*\)$/, '') : aborted.reason;
  return [
    `mcp-tools-conformance: ${ranAtAll ? `the audit stopped: ${reason}` : reason}`,
    ...(hint ? [`  hint: ${hint}`] : []),
    ...(aborted.targetStderr ?? []).map((line) => `  target stderr: ${line}`),
  ];
}
