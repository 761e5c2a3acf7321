// The TypeScript files that the build transpiles, one by one, into dist/: what tsconfig.json's include and exclude
// name. `npm run typecheck` (scripts/typecheck.mjs) fails when tsc's own list of the files it compiles differs.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['bin', 'src', 'suites', 'reference'];
const EXCLUDED = /\.(test|fixture|d)\.ts$|(^|\/)test-support\.ts$/;

/** The files under `dir` (relative to the root, forward slashes), folders walked here: Node 20.0 lacks parentPath. */
function filesUnder(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** Every source file the build compiles, relative to the root, with forward slashes, sorted. */
export function sourceFiles() {
  return DIRS.flatMap(filesUnder)
    .filter((file) => file.endsWith('.ts') && !EXCLUDED.test(file))
    .sort();
}
