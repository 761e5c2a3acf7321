import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { importGraph, violations } from '../scripts/check-boundaries.mjs';
import { ROOT } from './helpers/cli.js';

type Graph = Map<string, string[]>;
const graphOf = importGraph as (root: string) => Graph;
const violationsOf = violations as (graph: Graph) => string[];

/** A copy of the sources the checker reads (bin, src, suites, reference), to break on purpose. */
function copyOfTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'mtc-boundaries-'));
  for (const dir of ['bin', 'src', 'suites', 'reference'])
    cpSync(join(ROOT, dir), join(root, dir), { recursive: true, filter: (path) => !path.endsWith('.test.ts') });
  copies.push(root);
  return root;
}
const copies: string[] = [];
afterEach(() => {
  for (const root of copies.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Runs the checker as npm test does, on `root`. */
const check = (root: string) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts/check-boundaries.mjs'), root], { encoding: 'utf8' });

describe('the import boundaries of ARCHITECTURE.md (scripts/check-boundaries.mjs)', () => {
  it('hold on the tree: 0 violations', () => {
    expect(violationsOf(graphOf(ROOT))).toEqual([]);
    const run = check(ROOT);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fail on an upward import: the model importing the shell', () => {
    const root = copyOfTree();
    appendFileSync(join(root, 'src/model/check.ts'), "\nimport { main } from '../cli/main.js';\nvoid main;\n");
    const run = check(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('upward import: src/model/check.ts (model) imports src/cli/main.ts (shell)');
  });

  it('fail on a wing importing up its own layers: the client-mode services importing the client audit (engine)', () => {
    const root = copyOfTree();
    appendFileSync(
      join(root, 'src/client-mode/scenarios.ts'),
      "\nimport { runClientAudit } from './audit/audit.js';\nvoid runClientAudit;\n",
    );
    const run = check(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'upward import: src/client-mode/scenarios.ts (services) imports src/client-mode/audit/audit.ts (engine)',
    );
  });

  it('fail on a check importing a service directly instead of through suites/kit/index.ts', () => {
    const root = copyOfTree();
    const file = join(root, 'suites/wire/batches.ts');
    writeFileSync(
      file,
      `import { ERR } from '../../src/protocol/constants.js';\nvoid ERR;\n${readFileSync(file, 'utf8')}`,
    );
    const run = check(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('check outside its kit: suites/wire/batches.ts imports src/protocol/constants.ts');
  });

  it('fail on the auditor importing a reference program, on a reference program importing the auditor beyond src/core/, on their shared kit importing one of them, and on the core importing up', () => {
    const graph = graphOf(ROOT);
    graph.set('src/catalog/client-side.ts', [
      ...graph.get('src/catalog/client-side.ts')!,
      'reference/client/defects/index.ts',
    ]);
    graph.set('reference/server/tools.ts', [...graph.get('reference/server/tools.ts')!, 'src/protocol/constants.ts']);
    graph.set('reference/kit/hooks.ts', [...graph.get('reference/kit/hooks.ts')!, 'reference/server/tools.ts']);
    graph.set('src/core/revision.ts', [...graph.get('src/core/revision.ts')!, 'src/model/check.ts']);
    expect(
      violationsOf(graph)
        .filter((v) => !v.startsWith('import circle'))
        .sort(),
    ).toEqual([
      'reference program imported: src/catalog/client-side.ts imports reference/client/defects/index.ts; the ' +
        'auditor never imports reference/ (its data reaches it through scripts/)',
      'reference program not apart: reference/kit/hooks.ts imports reference/server/tools.ts; reference/kit/ ' +
        'imports only its own files and src/core/',
      'reference program not apart: reference/server/tools.ts imports src/protocol/constants.ts; ' +
        'reference/server/ imports only its own files, reference/kit/ and src/core/',
      'upward import: src/core/revision.ts (core) imports src/model/check.ts (model); a layer imports only its ' +
        'own and those below it',
    ]);
  });

  it('fail on a file in no layer, so a new folder is placed before it is used', () => {
    expect(violationsOf(new Map([['src/newfolder/x.ts', []]]))).toEqual([
      'no layer: src/newfolder/x.ts; give its folder a layer in scripts/check-boundaries.mjs and ARCHITECTURE.md',
    ]);
  });

  it('fail on circles between files and between folders, a folder and those inside it being one', () => {
    const graph: Graph = new Map([
      ['src/protocol/a.ts', ['src/protocol/b.ts']],
      ['src/protocol/b.ts', ['src/protocol/a.ts']],
      ['src/schema/tool-schema/x.ts', ['src/schema/precompiled/y.ts']],
      ['src/schema/precompiled/y.ts', ['src/schema/tool-schema/z.ts']],
      ['src/schema/tool-schema/z.ts', []],
      ['src/report/html.ts', ['src/report/html/page.ts']],
      ['src/report/html/page.ts', ['src/report/evidence-bounds.ts']],
      ['src/report/evidence-bounds.ts', []],
    ]);
    expect(violationsOf(graph)).toEqual([
      'import circle between files: src/protocol/a.ts → src/protocol/b.ts',
      'import circle between folders: src/schema/precompiled, src/schema/tool-schema ' +
        '(src/schema/precompiled/y.ts → src/schema/tool-schema/z.ts; src/schema/tool-schema/x.ts → ' +
        'src/schema/precompiled/y.ts)',
    ]);
  });
});
