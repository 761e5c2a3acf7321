// Build step after tsc: bundles the CLI (dist/bin/mcp-tools-conformance.js and the ~160 modules of ours it loads)
// into a few files in dist/cli/, the package's bin. Node 20's ES module loader spends ~0.3 ms of CPU per file, and
// an audit spends it while the target boots and then while it is busy. Packages stay external (npm installs and
// dedupes them; their licences stay with them). The tsc output is left as it is: tests import it, and
// `node dist/bin/mcp-tools-conformance.js` is the same CLI unbundled.
import { rmSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE_DIR = join(root, 'dist/cli');

/**
 * Each module keeps its own `import.meta.url`: the unbundled file's URL, computed from the bundle's location. So
 * what a module finds next to itself (package.json, the reference server, the precompiled validators, packages
 * through createRequire) is found where tsc put it, wherever the package is installed.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  transform(code, id) {
    if (id.includes(`${sep}node_modules${sep}`) || !code.includes('import.meta.url')) return null;
    const fromBundle = relative(BUNDLE_DIR, id).split(sep).join('/');
    return { code: code.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), map: null };
  },
};

rmSync(BUNDLE_DIR, { recursive: true, force: true });
const bundle = await rolldown({
  input: join(root, 'dist/bin/mcp-tools-conformance.js'),
  platform: 'node',
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  plugins: [keepModuleUrls],
});
await bundle.write({ dir: BUNDLE_DIR, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
await bundle.close();
