/** One line of the client's stdout: the outcome of calling one tool. */
export type CallLine =
  | { tool: string; result: Record<string, unknown> }
  | { tool: string; error: { message: string; code?: number } };

export function errorLine(tool: string, message: string, code?: unknown): CallLine {
  return { tool, error: typeof code === 'number' ? { message, code } : { message } };
}

export function printLine(line: CallLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
