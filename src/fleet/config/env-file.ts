/**
 * The variables of a `.env` file, as VS Code's `envFile` names one: `NAME=value` lines, `export ` allowed, `#`
 * comments, values in single quotes taken as written, in double quotes with `\n` escapes.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^export\s+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals <= 0) continue;
    const name = line.slice(0, equals).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) continue;
    out.set(name, unquote(line.slice(equals + 1).trim()));
  }
  return Object.fromEntries(out);
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2) {
    const end = value.indexOf(quote, 1);
    if (end > 0) {
      const inner = value.slice(1, end);
      return quote === '"' ? inner.replace(/\\n/g, '\n') : inner;
    }
  }
  const comment = value.search(/\s#/);
  return (comment === -1 ? value : value.slice(0, comment)).trim();
}
