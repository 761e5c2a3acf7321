// npm run typecheck (npm test runs it first): tsc's type-check of tsconfig.json's files, without emitting; the build
// transpiles them without checking (scripts/build.mjs). Fails, too, when the files tsc compiles are not the ones the
// build transpiles (scripts/sources.mjs): a file tsc would have emitted, and the build not, would be missing from
// dist/.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { isAbsolute, relative, sep } from 'node:path';
import { ROOT, sourceFiles } from './sources.mjs';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const args = [tsc, '-p', 'tsconfig.json', '--noEmit', '--listFiles', ...(process.stdout.isTTY ? ['--pretty'] : [])];
const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (run.error) throw run.error;

const listed = [];
const output = [];
for (const line of run.stdout.split('\n')) {
  if (isAbsolute(line) && /\.[cm]?tsx?$/.test(line)) {
    const file = relative(ROOT, line).split(sep).join('/');
    // Declaration files are read, not emitted.
    if (!file.startsWith('..') && !file.startsWith('node_modules/') && !file.endsWith('.d.ts')) listed.push(file);
  } else {
    output.push(line);
  }
}
process.stdout.write(output.join('\n'));
process.stderr.write(run.stderr);

let status = run.status ?? 1;
if (status === 0) {
  const built = new Set(sourceFiles());
  const compiled = new Set(listed);
  const notBuilt = listed.filter((file) => !built.has(file));
  const notCompiled = [...built].filter((file) => !compiled.has(file));
  if (notBuilt.length + notCompiled.length > 0) {
    if (notBuilt.length > 0)
      console.error(
        `typecheck: tsc compiles files the build does not transpile (scripts/sources.mjs): ${notBuilt.join(', ')}`,
      );
    if (notCompiled.length > 0)
      console.error(
        `typecheck: the build transpiles files tsc does not compile (tsconfig.json): ${notCompiled.join(', ')}`,
      );
    status = 1;
  }
}
process.exit(status);
