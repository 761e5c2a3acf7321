/** Lines kept from the start of a target's stderr, and from its end. */
const HEAD_LINES = 4;
const TAIL_LINES = 3;
const LINE_CHARS = 240;
/** A line that names what went wrong, wherever it stands ("Error: Cannot find module …" sits mid-trace in Node). */
const TELLING = /\b(?:error|exception|traceback|fatal|panic|cannot|can't|not found|no such file|denied|refused)\b/i;

/**
 * What to show of a target's stderr: its first lines, the first line that names an error (when it is in neither end),
 * and its last lines, blank lines dropped, each line clipped. Empty when the target wrote nothing.
 */
export function stderrExcerpt(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const clip = (line: string) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line);
  if (lines.length <= HEAD_LINES + TAIL_LINES + 1) return lines.map(clip);
  const head = lines.slice(0, HEAD_LINES);
  const tail = lines.slice(-TAIL_LINES);
  const middle = lines.slice(HEAD_LINES, -TAIL_LINES);
  const telling = head.some((line) => TELLING.test(line)) ? undefined : middle.find((line) => TELLING.test(line));
  return [...head, '…', ...(telling ? [telling, '…'] : []), ...tail].map(clip);
}

/** The line of an excerpt that best says what went wrong: the first that names an error, else the last. */
export function tellingLine(excerpt: readonly string[]): string | undefined {
  return excerpt.find((line) => TELLING.test(line)) ?? excerpt.filter((line) => line !== '…').at(-1);
}
