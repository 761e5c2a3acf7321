/** One line of the client's stdout: the outcome of calling one tool (or, see printListed, a listing). */
export type CallLine =
  { tool: string; result: Record<string, unknown> } | { tool: string; error: { message: string; code?: number } };

export function errorLine(tool: string, message: string, code?: unknown): CallLine {
  return { tool, error: typeof code === 'number' ? { message, code } : { message } };
}

export function printLine(line: CallLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** The driver contract's optional line after each listing: how many tools it holds. */
export function printListed(count: number): void {
  process.stdout.write(`${JSON.stringify({ listed: count })}\n`);
}
