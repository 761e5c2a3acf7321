import type { CheckDefinition } from '../runner/types.js';

export function printCatalog(checks: readonly CheckDefinition[], out: NodeJS.WritableStream): void {
  const idWidth = Math.max(...checks.map((c) => c.id.length), 2);
  out.write(`${'ID'.padEnd(idWidth)}  KEYWORD     WIRES                  TITLE\n`);
  for (const c of checks) {
    const wires = c.wires.join(',') + (c.needs?.length ? ` [${c.needs.join(',')}]` : '');
    out.write(`${c.id.padEnd(idWidth)}  ${c.keyword.padEnd(10)}  ${wires.padEnd(21)}  ${c.title}\n`);
  }
  out.write(`${checks.length} checks\n`);
}
