// npm test runs this first: the import rules of ARCHITECTURE.md, checked over every TypeScript file the build compiles
// (tests are left out: they may reach anything). Reads imports with the TypeScript compiler's pre-processor (no type
// check, ~0.3 s); type-only imports count, they are dependencies of the design all the same. There is no list of
// exceptions: a rule that does not hold is fixed in the code, or changed here and in ARCHITECTURE.md together.
//
//   node scripts/check-boundaries.mjs [root]     exits 1 and lists every violation; `root` defaults to this repository
//
// The rules:
// 1. layers: every file of bin/, src/ and suites/ is in one layer, and imports only files of its own layer or of a
//    layer below it:
//      shell (bin/, src/cli, src/report, src/catalog, src/fleet) → checks (suites/) → engine (src/engine, src/runner,
//      src/client-mode/audit) → services (src/transport, src/client-mode, src/protocol, src/schema, src/sandbox,
//      src/property, src/lock, src/hosts, src/baseline, src/snapshot) → model (src/model, src/spec-links.ts) → core
//      (src/core)
//    A file is in the layer of its longest matching path: a product's wing (src/client-mode) keeps the parts of it
//    that belong to a higher layer in a folder of their own (src/client-mode/audit).
//    The core (JSON-RPC, canonical JSON, the revision list, the precompiled-validator loader, the _meta keys) is the
//    bottom layer: it imports nothing of ours outside itself.
// 2. one surface for checks: a file of suites/ outside suites/kit/ imports nothing outside suites/; what a check may
//    use of the engine and below, suites/kit/index.ts re-exports
// 3. the reference programs are apart: reference/server/ and reference/client/ import only their own files, what they
//    share (reference/kit/, which imports only its own files and the core) and the core, and nothing outside
//    reference/ imports anything in it (reference/defect-tables.ts, their defect tables as data, reaches the
//    CONFORMANCE.md generator through its entry point, scripts/conformance-md.mjs)
// 4. no import circles between files, nor between folders (a folder: the files directly in one directory; a folder
//    and those inside it are not each other's outside)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');

const LAYERS = [
  { name: 'shell', paths: ['bin/', 'src/cli/', 'src/report/', 'src/catalog/', 'src/fleet/'] },
  { name: 'checks', paths: ['suites/'] },
  { name: 'engine', paths: ['src/engine/', 'src/runner/', 'src/client-mode/audit/'] },
  {
    name: 'services',
    paths: [
      'src/transport/',
      'src/client-mode/',
      'src/protocol/',
      'src/schema/',
      'src/sandbox/',
      'src/property/',
      'src/lock/',
      'src/baseline/',
      'src/snapshot/',
      'src/hosts/',
    ],
  },
  { name: 'model', paths: ['src/model/', 'src/spec-links.ts'] },
  { name: 'core', paths: ['src/core/'] },
];
const REFERENCE_PROGRAMS = ['reference/server/', 'reference/client/', 'reference/kit/'];
const REFERENCE_KIT = 'reference/kit/';
const CORE = 'src/core/';
const KIT = 'suites/kit/';
const DIRS = ['bin', 'src', 'suites', 'reference'];
const SKIPPED = /\.(test|fixture|d)\.ts$|\/test-support\.ts$/;

/**
 * The layer of a file: the index in LAYERS (0 is the top) of its longest matching path, so that a folder inside
 * another may be in a layer of its own; undefined outside them.
 */
function layerOf(file) {
  let found;
  let longest = -1;
  for (const [index, layer] of LAYERS.entries()) {
    for (const p of layer.paths) {
      const matches = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (matches && p.length > longest) [found, longest] = [index, p.length];
    }
  }
  return found;
}
const programOf = (file) => REFERENCE_PROGRAMS.find((p) => file.startsWith(p));

function filesUnder(root, dir) {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory()
      ? filesUnder(root, path)
      : entry.isFile() && path.endsWith('.ts') && !SKIPPED.test(path)
        ? [path]
        : [];
  });
}

/** Every relative import of each file, resolved to a file of ours (TypeScript sources; other files are data). */
export function importGraph(root) {
  const files = DIRS.flatMap((dir) => filesUnder(root, dir)).sort();
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), fileName)).replace(/\.js$/, '.ts');
      // Files of ours, and any other TypeScript file (a test helper) a rule may forbid; data (JSON) is no layer's.
      if (target.endsWith('.ts')) targets.push(target);
    }
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one node (or a node importing itself), by Tarjan's algorithm. */
function circles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Whether one folder holds the other (or they are one): a folder and its subfolders are one unit seen from outside,
 * so a parent's files using its subfolders' and theirs using the parent's is composition, not a circle between folders.
 */
const nested = (a, b) => a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);

/** Every violation of the rules in `graph` (file → files it imports), one sentence each. */
export function violations(graph) {
  const found = [];
  for (const file of graph.keys()) {
    if (layerOf(file) === undefined && !file.startsWith('reference/')) {
      found.push(`no layer: ${file}; give its folder a layer in scripts/check-boundaries.mjs and ARCHITECTURE.md`);
    }
  }
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [layerOf(file), layerOf(target)];
      if (from !== undefined && to !== undefined && to < from) {
        found.push(
          `upward import: ${file} (${LAYERS[from].name}) imports ${target} (${LAYERS[to].name}); a layer ` +
            `imports only its own and those below it`,
        );
      }
      if (file.startsWith('suites/') && !file.startsWith(KIT) && !target.startsWith('suites/')) {
        found.push(
          `check outside its kit: ${file} imports ${target}; a check imports from suites/ only, and what it ` +
            `uses of src/ through suites/kit/index.ts`,
        );
      }
      const program = programOf(file);
      const shared = program !== REFERENCE_KIT && target.startsWith(REFERENCE_KIT);
      if (program && !target.startsWith(program) && !target.startsWith(CORE) && !shared) {
        found.push(
          `reference program not apart: ${file} imports ${target}; ${program} imports only its own files` +
            `${program === REFERENCE_KIT ? '' : ', reference/kit/'} and src/core/`,
        );
      }
      if (target.startsWith('reference/') && !file.startsWith('reference/')) {
        found.push(
          `reference program imported: ${file} imports ${target}; the auditor never imports reference/ (its ` +
            `data reaches it through scripts/)`,
        );
      }
    }
  }
  for (const component of circles(graph)) found.push(`import circle between files: ${component.join(' → ')}`);
  const folders = new Map();
  for (const [file, targets] of graph) {
    const folder = posix.dirname(file);
    const edges = folders.get(folder) ?? new Set();
    for (const target of targets) if (!nested(folder, posix.dirname(target))) edges.add(posix.dirname(target));
    folders.set(folder, edges);
  }
  const folderGraph = new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
  for (const component of circles(folderGraph)) {
    const witnesses = component.flatMap((folder) =>
      [...graph]
        .filter(([file]) => posix.dirname(file) === folder)
        .flatMap(([file, targets]) =>
          targets
            .filter((t) => !nested(folder, posix.dirname(t)) && component.includes(posix.dirname(t)))
            .map((t) => `${file} → ${t}`),
        ),
    );
    found.push(`import circle between folders: ${component.join(', ')} (${witnesses.sort().join('; ')})`);
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const graph = importGraph(root);
  const found = violations(graph);
  if (found.length > 0) {
    console.error(
      `check-boundaries: ${found.length} violation(s) of ARCHITECTURE.md's import rules ` +
        `(scripts/check-boundaries.mjs)\n${found.map((v) => `  ${v}`).join('\n')}`,
    );
    process.exit(1);
  }
  const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
  console.log(
    `check-boundaries: ${graph.size} files, ${edges} imports, 0 violations (` +
      `${relative(process.cwd(), root).split(sep).join('/') || '.'})`,
  );
}
