import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** This CLI's entry point: the bundled one when the package is built, else the transpiled one (dist/bin/). */
export function cliScript(): string {
  const bundled = fileURLToPath(new URL('../../cli/mcp-tools-conformance.js', import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(new URL('../../bin/mcp-tools-conformance.js', import.meta.url));
}
