/**
 * Deepest nesting of arrays and objects we accept in a message from the target. No MCP message needs more; a deeper
 * one would overflow the stack of every recursive walk over it (canonical JSON, secret scrubbing, reports).
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * True when the JSON text nests arrays/objects deeper than `max`. A linear scan that stops as soon as it knows, so
 * it runs before JSON.parse and never builds the hostile structure. Brackets inside strings do not count.
 */
export function jsonNestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return false;
}

export function tooDeepMessage(max: number): string {
  return `message nested deeper than ${max} levels`;
}
