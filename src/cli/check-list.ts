import type { CheckDefinition } from '../runner/types.js';

/** `--list`: one row per check, columns as wide as their longest cell. */
export function printCatalog(checks: readonly CheckDefinition[], out: NodeJS.WritableStream): void {
  const rows = checks.map((c) => [c.id, c.keyword, c.wires.join(',') + (c.needs?.length ? ` [${c.needs.join(',')}]` : ''), c.title]);
  const header = ['ID', 'KEYWORD', 'WIRES', 'TITLE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  out.write(`${line(header)}\n`);
  for (const row of rows) out.write(`${line(row)}\n`);
  out.write(`${checks.length} checks\n`);
}
