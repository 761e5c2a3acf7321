// Extracts the requirement rows of ../shared/requirements.md into data/requirements-catalog.json,
// so CONFORMANCE.md can be generated (and checked by a test) without the shared folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../shared/requirements.md', import.meta.url));
const target = fileURLToPath(new URL('../data/requirements-catalog.json', import.meta.url));
const lines = readFileSync(source, 'utf8').split('\n');
const rows = [];
let section = '';
for (const line of lines) {
  const heading = /^### (1\.\d+) (.*)$/.exec(line);
  if (heading) section = `${heading[1]} ${heading[2]}`;
  if (!line.startsWith('| ') || !section.startsWith('1.')) continue;
  const cells = line.slice(2, -2).split(' | ');
  if (cells.length < 7 || cells[0] === 'ID' || cells[0].startsWith('---')) continue;
  const [id, keyword, role, quote, src, testability] = cells;
  if (!/^[a-z0-9.-]+$/.test(id)) continue;
  rows.push({ id, keyword, role, section, quote, source: src, testability });
}
writeFileSync(target, JSON.stringify({ source: 'shared/requirements.md', rows }, null, 1) + '\n');
console.log(`wrote ${rows.length} requirements to ${target}`);
