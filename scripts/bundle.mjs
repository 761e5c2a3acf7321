// Build step after tsc: bundles the CLI (dist/bin/mcp-tools-conformance.js and the ~160 modules of ours it loads)
// into dist/cli/, the package's bin, and the reference server (~40 modules) into dist/reference-server/. Node 20's ES
// module loader spends ~0.3 ms of CPU per file: an audit spent it while the target boots and then while it is busy,
// and the reference server spent it before it could answer. Packages stay external (npm installs and dedupes them;
// their licences stay with them). The tsc output is left as it is: tests import it, and
// `node dist/bin/mcp-tools-conformance.js` is the same CLI unbundled.
import { rmSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));

const BUNDLES = [
  { input: 'dist/bin/mcp-tools-conformance.js', outDir: 'dist/cli' },
  { input: 'dist/src/reference-server/main.js', outDir: 'dist/reference-server' },
];

/**
 * Each module keeps its own `import.meta.url`: the unbundled file's URL, computed from the bundle's location. So
 * what a module finds next to itself (package.json, the reference server, the precompiled validators, packages
 * through createRequire) is found where tsc put it, wherever the package is installed.
 */
function keepModuleUrls(outDir) {
  return {
    name: 'keep-module-urls',
    transform(code, id) {
      if (id.includes(`${sep}node_modules${sep}`) || !code.includes('import.meta.url')) return null;
      const fromBundle = relative(outDir, id).split(sep).join('/');
      return { code: code.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), map: null };
    },
  };
}

for (const { input, outDir } of BUNDLES) {
  const dir = join(root, outDir);
  rmSync(dir, { recursive: true, force: true });
  const bundle = await rolldown({
    input: join(root, input),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    plugins: [keepModuleUrls(dir)],
  });
  await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
}
