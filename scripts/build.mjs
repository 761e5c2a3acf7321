// npm run build: what tsc's emit gave, without its type-check (`npm run typecheck`, which `npm test` runs first).
// 1. Every TypeScript file tsconfig.json compiles is transpiled on its own to dist/<path>.js, with its source map,
//    by oxc (rolldown's `transform`): ~0.3 s of CPU for the ~420 files, where tsc's emit took ~17 s of a fresh
//    clone's first build. Types are only stripped: the sources are written so that a file alone says what is a type
//    (tsc's isolatedModules holds; `npm run typecheck` checks it), and target ES2022 lowers nothing Node 20 runs.
// 2. The precompiled validators (scripts/precompile-validators.mjs, in a process of its own) while
// 3. the CLI and the reference server are bundled (scripts/bundle.mjs); the one-file ajv is bundled last, once the
//    validators are generated from the ajv packages themselves.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { transformSync } from 'rolldown/experimental';
import { bundleEntries, vendorAjv } from './bundle.mjs';
import { ROOT as root, sourceFiles } from './sources.mjs';

const dist = join(root, 'dist');

/** Transpiles each source file to dist/ as tsc placed it (rootDir "."), with a source map pointing at the source. */
function transpile() {
  const errors = [];
  const made = new Set();
  for (const file of sourceFiles()) {
    const out = join(dist, file.replace(/\.ts$/, '.js'));
    const result = transformSync(file, readFileSync(join(root, file), 'utf8'), {
      cwd: root,
      lang: 'ts',
      sourceType: 'module',
      target: 'es2022',
      sourcemap: true,
    });
    if (result.errors.length > 0) {
      errors.push(...result.errors.map((e) => `${file}: ${e.message}`));
      continue;
    }
    const dir = dirname(out);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true });
    made.add(dir);
    const map = {
      version: 3,
      file: basename(out),
      sourceRoot: '',
      sources: [relative(dir, join(root, file)).split(sep).join('/')],
      names: result.map.names,
      mappings: result.map.mappings,
    };
    writeFileSync(out, `${result.code.replace(/\n*$/, '\n')}//# sourceMappingURL=${basename(out)}.map`);
    writeFileSync(`${out}.map`, JSON.stringify(map));
  }
  if (errors.length > 0) throw new Error(`build: cannot transpile\n${errors.join('\n')}`);
}

function precompile() {
  const child = spawn(process.execPath, [join(root, 'scripts/precompile-validators.mjs')], { stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) =>
      code === 0 ? done() : fail(new Error(`build: precompiling the validators failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

// `--timings`: how long each step took, on stderr.
const started = performance.now();
const timings = process.argv.includes('--timings');
const timed = async (label, step) => {
  const from = performance.now();
  await step();
  if (timings)
    console.error(
      `build: ${label} ${Math.round(performance.now() - from)} ms (ends at ` +
        `${Math.round(performance.now() - started)} ms)`,
    );
};

/**
 * The reference client was built to dist/src/reference-client/main.js before it moved to reference/client/ (issue 42):
 * command lines that name that path keep starting it.
 */
function forwardOldPaths() {
  const old = join(dist, 'src/reference-client/main.js');
  mkdirSync(dirname(old), { recursive: true });
  writeFileSync(
    old,
    '// Moved to dist/reference/client/main.js (issue 42); kept for command lines that name this path.\nimport ' +
      "'../../reference/client/main.js';\n",
  );
}

await timed('transpile', transpile);
forwardOldPaths();
await Promise.all([timed('precompiled validators', precompile), timed('bundles', bundleEntries)]);
await timed('one-file ajv', vendorAjv);
