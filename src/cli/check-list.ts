import type { CheckDefinition } from '../runner/types.js';
import { keywordLabel, revisionsOf } from '../model/check.js';

/** `--list`: one row per check, columns as wide as their longest cell. */
/** What --list shows of a check: server checks name what they need, client checks their scenario and transport. */
type Listed = Pick<CheckDefinition, 'id' | 'keyword' | 'sentences' | 'title'> & {
  needs?: readonly string[];
  scenario?: string;
  transport?: string;
};

export function printCatalog(checks: readonly Listed[], out: NodeJS.WritableStream): void {
  const tags = (c: Listed) => [
    ...(c.needs ?? []),
    ...(c.scenario ? [`scenario ${c.scenario}`] : []),
    ...(c.transport ? [c.transport] : []),
  ];
  const rows = checks.map((c) => [
    c.id,
    keywordLabel(c.keyword),
    revisionsOf(c).join(',') + (tags(c).length ? ` [${tags(c).join(',')}]` : ''),
    c.title,
  ]);
  const header = ['ID', 'KEYWORD', 'WIRES', 'TITLE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  out.write(`${line(header)}\n`);
  for (const row of rows) out.write(`${line(row)}\n`);
  out.write(`${checks.length} checks\n`);
}
