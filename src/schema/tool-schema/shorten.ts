const DEFAULT_MAX = 200;

/** Keeps hostile strings (refs, URIs, pointers) short enough to quote in a message. */
export function shorten(text: string, max = DEFAULT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
