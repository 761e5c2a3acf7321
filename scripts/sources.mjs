// The TypeScript files that the build transpiles, one by one, into dist/: what tsconfig.json's include and exclude
// name. `npm run typecheck` (scripts/typecheck.mjs) fails when tsc's own list of the files it compiles differs.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['bin', 'src', 'suites'];
const EXCLUDED = /\.(test|fixture|d)\.ts$|^src\/reference-server\/test-support\.ts$/;

/** Every source file the build compiles, relative to the root, with forward slashes, sorted. */
export function sourceFiles() {
  return DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .filter((file) => !EXCLUDED.test(file)),
  ).sort();
}
