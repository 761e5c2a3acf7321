import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';

// What a sandboxed server could have changed, printed before and after an audit (test/sandbox.test.ts,
// test/census.test.ts).

/** Every file under `dir` with the hash of its content (and every folder and link), to compare before and after. */
export function contentPrint(dir: string): Record<string, string> {
  const print: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (name === '__pycache__') continue;
      const path = join(at, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) {
        print[path] = 'dir';
        walk(path);
      } else
        print[path] = stat.isFile()
          ? createHash('sha256').update(readFileSync(path)).digest('hex')
          : `other ${stat.size}`;
    }
  };
  walk(dir);
  return print;
}

/**
 * What a server could have written outside the folders it was pointed at: HOME's entries two levels down (names, sizes,
 * modification times; npm's own cache and logs aside, which other tests running npx touch) and the project's sources.
 */
export function surroundingsPrint(): Record<string, string> {
  const print: Record<string, string> = {};
  const list = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (path === join(homedir(), '.npm')) continue;
      const stat = lstatSync(path);
      print[path] = `${stat.size} ${stat.mtimeMs}`;
      if (stat.isDirectory() && depth > 1) list(path, depth - 1);
    }
  };
  list(homedir(), 2);
  for (const folder of ['src', 'suites', 'test', 'data']) Object.assign(print, contentPrint(join(ROOT, folder)));
  return print;
}
