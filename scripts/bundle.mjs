// Build step (scripts/build.mjs) after the transpile: bundles the CLI (dist/bin/mcp-tools-conformance.js and the ~160
// modules of ours it loads) into dist/cli/, the package's bin, and the reference server (~40 modules) into
// dist/reference-server/. Node 20's ES module loader spends ~0.3 ms of CPU per file: an audit spent it while the
// target boots and then while it is busy, and the reference server spent it before it could answer. Packages stay
// external (npm installs and dedupes them; their licences stay with them), except fast-check and its pure-rand in the
// CLI: imported by name, they shrink to the ~90 KB the property search uses (the whole library took ~30 ms to load);
// their licences are copied into THIRD-PARTY-NOTICES.md next to the bundle. ajv and ajv-formats, which the CLI
// requires lazily, are also bundled into one CommonJS file (dist/vendor/ajv.cjs) that src/schema/ajv-factory.ts
// prefers to the packages. The transpiled files are left as they are: tests import them, and
// `node dist/bin/mcp-tools-conformance.js` is the same CLI unbundled. `node scripts/bundle.mjs` alone bundles again
// from the dist/ there is.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));

const BUNDLES = [
  { input: 'dist/bin/mcp-tools-conformance.js', outDir: 'dist/cli', inline: ['fast-check', 'pure-rand'] },
  { input: 'dist/reference/server/main.js', outDir: 'dist/reference-server', inline: [] },
];

const packageName = (id) => (id.startsWith('@') ? id.split('/').slice(0, 2) : id.split('/').slice(0, 1)).join('/');

/** Writes THIRD-PARTY-NOTICES.md into `dir` with the licence of every package whose code its files carry. */
function writeNotices(dir) {
  const carried = new Set();
  for (const file of readdirSync(dir).filter((f) => /\.c?js$/.test(f))) {
    for (const [, path] of readFileSync(join(dir, file), 'utf8').matchAll(/^\/\/ node_modules\/(\S+)/gm))
      carried.add(packageName(path));
  }
  if (carried.size === 0) return;
  const sections = [...carried].sort().map((name) => {
    const pkgDir = join(root, 'node_modules', name);
    const { version, license } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(pkgDir).find((f) => /^licen[cs]e/i.test(f));
    if (!licenceFile) throw new Error(`${name} has no LICENSE file to carry into ${dir}`);
    return `## ${name} ${version} (${license})\n\n${readFileSync(join(pkgDir, licenceFile), 'utf8').trim()}\n`;
  });
  writeFileSync(
    join(dir, 'THIRD-PARTY-NOTICES.md'),
    `# Third-party code in this folder\n\nParts of these packages are bundled into the files of this ` +
      `folder.\n\n${sections.join('\n')}`,
  );
}

/**
 * Each module keeps its own `import.meta.url`: the unbundled file's URL, computed from the bundle's location. So
 * what a module finds next to itself (package.json, the reference server, the precompiled validators, packages
 * through createRequire) is found where the build transpiled it to, wherever the package is installed.
 */
function keepModuleUrls(outDir) {
  return {
    name: 'keep-module-urls',
    transform(code, id) {
      if (id.includes(`${sep}node_modules${sep}`) || !code.includes('import.meta.url')) return null;
      const fromBundle = relative(outDir, id).split(sep).join('/');
      return {
        code: code.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        map: null,
      };
    },
  };
}

/**
 * dist/vendor/ajv.cjs: ajv and ajv-formats as one CommonJS file, which src/schema/ajv-factory.ts requires instead of
 * the packages when it is there (~25 ms less loading: the CommonJS loader's cost is per file).
 */
export async function vendorAjv() {
  const dir = join(root, 'dist/vendor');
  rmSync(dir, { recursive: true, force: true });
  const bundle = await rolldown({ input: join(root, 'scripts/vendor-ajv.cjs'), platform: 'node', logLevel: 'silent' });
  await bundle.write({ file: join(dir, 'ajv.cjs'), format: 'cjs' });
  await bundle.close();
  writeNotices(dir);
}

/** The CLI and the reference server, bundled side by side. */
export async function bundleEntries() {
  await Promise.all(
    BUNDLES.map(async ({ input, outDir, inline }) => {
      const dir = join(root, outDir);
      rmSync(dir, { recursive: true, force: true });
      const bundle = await rolldown({
        input: join(root, input),
        platform: 'node',
        external: (id) => !id.startsWith('.') && !isAbsolute(id) && !inline.includes(packageName(id)),
        plugins: [keepModuleUrls(dir)],
      });
      await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
      await bundle.close();
      writeNotices(dir);
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await bundleEntries();
  await vendorAjv();
}
