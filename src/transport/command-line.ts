/**
 * Split a command line into argv the way a POSIX shell would for the simple cases users type:
 * whitespace separates words, single quotes are literal, double quotes allow \" \\ \$
 * \`, backslash escapes outside quotes. No globbing, variables or operators: the target is spawned directly, never
 * through a shell.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else current += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) current += line[++i];
      else current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in command line`);
  if (inWord) words.push(current);
  return words;
}

/** The command line that splitCommandLine splits back into `argv`: words quoted only where they need it. */
export function joinCommandLine(argv: readonly string[]): string {
  return argv
    .map((word) => (word !== '' && /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
