// Formats the whole tree once (issue 42), and says how many lines are still over 120 characters:
//   1. prettier --write .
//   2. scripts/wrap-long-lines.mjs (comments and strings prettier leaves long), then prettier --write on the files it
//      changed, again until nothing changes (a split string that prettier indents further may be split once more);
//      then prettier --write . once more, as prettier does not always reach its own fixed point in one pass;
//   3. eslint . (with --fix off: what it finds is for a person to fix);
//   4. the share of lines over 120 characters in src, suites, test, scripts, bench, reference, bin and examples.
// Then `node scripts/wrap-long-lines.mjs --verify HEAD` proves, against the commit before the formatting, that the code
// is unchanged. Exits non-zero when eslint finds anything.
//
//   node scripts/format-tree.mjs [--no-lint]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrapLongLines } from './wrap-long-lines.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(ROOT, 'package.json'));
const WIDTH = 120;
const MEASURED = ['src', 'suites', 'test', 'scripts', 'bench', 'reference', 'bin', 'examples'];
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'reports', 'coverage', '.cache']);

/** The path of a package's command-line script, from this project's node_modules. */
function bin(pkg, name = pkg) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bins === 'string' ? bins : bins[name]);
}

function run(label, script, args) {
  const from = performance.now();
  const options = { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 28 };
  const result = spawnSync(process.execPath, [script, ...args], options);
  if (result.error) throw result.error;
  const lines = result.stdout.trimEnd().split('\n');
  if (lines.length > 40) console.log(`${lines.slice(0, 20).join('\n')}\n… (${lines.length - 20} more lines)`);
  else if (result.stdout.trim() !== '') console.log(result.stdout.trimEnd());
  console.log(`format-tree: ${label}: exit ${result.status}, ${((performance.now() - from) / 1000).toFixed(1)} s`);
  return result.status;
}

function filesUnder(dir) {
  let entries;
  try {
    entries = readdirSync(join(ROOT, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Lines over the width (in characters) among the text files of the measured folders. */
function longLines() {
  let lines = 0;
  let long = 0;
  const byDir = {};
  for (const dir of MEASURED) {
    for (const file of filesUnder(dir)) {
      const buffer = readFileSync(join(ROOT, file));
      if (buffer.includes(0)) continue;
      for (const line of buffer.toString('utf8').split('\n')) {
        lines++;
        if ([...line].length > WIDTH) {
          long++;
          byDir[dir] = (byDir[dir] ?? 0) + 1;
        }
      }
    }
  }
  return { lines, long, byDir };
}

const prettier = bin('prettier');
const before = longLines();
if (run('prettier --write .', prettier, ['--write', '--log-level', 'warn', '.']) !== 0) process.exit(2);
const code = filesUnder('.')
  .filter((f) => /\.(?:[cm]?ts|[cm]?js)$/.test(f) && !f.endsWith('.d.ts'))
  .map((f) => f.slice(2));
for (let round = 1; round <= 4; round++) {
  const changed = [];
  for (const file of code) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const wrapped = wrapLongLines(file, text);
    if (wrapped !== text) {
      changed.push(file);
      writeFileSync(join(ROOT, file), wrapped);
    }
  }
  console.log(`format-tree: wrap-long-lines round ${round}: ${changed.length} files changed`);
  if (changed.length === 0) break;
  if (run(`prettier --write (${changed.length} files)`, prettier, ['--write', '--log-level', 'warn', ...changed]) !== 0)
    process.exit(2);
}
// Prettier is not always stable in one pass (a member chain it breaks may be joined on the next): once more, whole.
if (run('prettier --write . (again)', prettier, ['--write', '--log-level', 'warn', '.']) !== 0) process.exit(2);
const lint = process.argv.includes('--no-lint') ? 0 : run('eslint .', bin('eslint'), ['.']);
const after = longLines();
const share = ({ long, lines }) => `${long} of ${lines} lines (${((long / lines) * 100).toFixed(2)}%)`;
console.log(
  `format-tree: lines over ${WIDTH} characters in ${MEASURED.filter((d) => filesUnder(d).length > 0).join(', ')}:`,
);
console.log(`  before: ${share(before)}`);
console.log(`  after:  ${share(after)}  ${JSON.stringify(after.byDir)}`);
process.exit(lint === 0 ? 0 : 1);
