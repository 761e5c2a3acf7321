/** One case to re-run: a tool and fast-check's path to the (shrunk) counterexample. */
export interface ReplayTarget {
  tool: string;
  path: string;
}

const PATH = /^\d+(:\d+)*$/;

/** `<tool>@<path>`: fast-check paths never hold "@", so the last one separates them whatever the tool is named. */
export function formatReplayToken(target: ReplayTarget): string {
  return `${target.tool}@${target.path}`;
}

export function parseReplayToken(token: string): ReplayTarget | undefined {
  const at = token.lastIndexOf('@');
  if (at <= 0) return undefined;
  const tool = token.slice(0, at);
  const path = token.slice(at + 1);
  return PATH.test(path) ? { tool, path } : undefined;
}

/** POSIX shell quoting, so the printed line can be pasted as it is. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
