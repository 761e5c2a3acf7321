/** Diagnostics go to stderr: stdout carries only the result lines. */
export function warn(message: string): void {
  process.stderr.write(`[reference-client] ${message}\n`);
}
