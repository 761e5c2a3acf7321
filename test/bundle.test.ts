import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT, CLI, REFERENCE, ROOT, runCli } from './helpers/cli.js';

/** `npm run build` bundles the CLI (the package's bin) and the reference server (scripts/bundle.mjs). */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};

const BUNDLES = [
  {
    name: 'the CLI',
    entry: CLI,
    unbundled: join(ROOT, 'dist/bin/mcp-tools-conformance.js'),
    args: ['--list'],
    expectUrls: ['../src/core/precompiled.js', '../src/cli/target.js'],
  },
  {
    name: 'the reference server',
    entry: REFERENCE,
    unbundled: join(ROOT, 'dist/reference/server/main.js'),
    args: ['--list-defects'],
    expectUrls: ['../reference/server/tool-input.js'],
  },
];

function filesOf(entry: string): { file: string; text: string }[] {
  const dir = dirname(entry);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });

describe.skipIf(!BUILT)('bundles', () => {
  it('the CLI bundle is the package bin', () => {
    expect(join(ROOT, Object.values(pkg.bin)[0]!)).toBe(CLI);
  });

  describe.each(BUNDLES)('$name', ({ entry, unbundled, args, expectUrls }) => {
    const files = filesOf(entry);

    it('is a few files', () => {
      expect(files.length).toBeGreaterThan(1);
      expect(files.length).toBeLessThan(30);
    });

    it('finds every file a module looks for next to itself where the build transpiled it to (module URLs kept)', () => {
      const base = pathToFileURL(`${dirname(entry)}/`);
      const urls = files.flatMap(({ text }) =>
        [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]!),
      );
      for (const url of expectUrls) expect(urls).toContain(url);
      for (const url of urls) expect(existsSync(fileURLToPath(new URL(url, base))), url).toBe(true);
      // A module URL left as the chunk's own would look for package.json, validators or the reference server here.
      const bare = files.filter(({ text }) =>
        /import\.meta\.url/.test(text.replace(/new URL\("[^"]+", import\.meta\.url\)/g, '')),
      );
      expect(bare.map((b) => b.file)).toEqual([]);
    });

    it('imports nothing but Node built-ins and the runtime dependencies', () => {
      const specifiers = files.flatMap(({ text }) => [
        ...[...text.matchAll(/^\s*(?:import|export)\b[^;\n]*?\bfrom\s*"([^"]+)"/gm)].map((m) => m[1]!),
        ...[...text.matchAll(/^\s*import\s*"([^"]+)"/gm)].map((m) => m[1]!),
        ...[...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/require[A-Za-z]*\("([^"]+)"/g)].map((m) => m[1]!),
      ]);
      expect(specifiers.length).toBeGreaterThan(0);
      const packages = new Set(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')).map(packageOf));
      for (const name of packages) expect(builtinModules.includes(name) || name in pkg.dependencies, name).toBe(true);
    });

    it(`prints the same ${args.join(' ')} as the unbundled output`, () => {
      const bundled = run(entry, args);
      const plain = run(unbundled, args);
      expect(bundled.status, bundled.stderr).toBe(0);
      expect(plain.status, plain.stderr).toBe(0);
      expect(bundled.stdout.length).toBeGreaterThan(100);
      expect(bundled.stdout).toBe(plain.stdout);
    });
  });

  it.each([
    ['the CLI', dirname(CLI)],
    ['the reference server', dirname(REFERENCE)],
    ['the one-file ajv', join(ROOT, 'dist/vendor')],
  ])('%s carries the licence of every package it has code of, in THIRD-PARTY-NOTICES.md', (_name, dir) => {
    const texts = readdirSync(dir)
      .filter((f) => /\.c?js$/.test(f))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(texts.length).toBeGreaterThan(0);
    const carried = new Set(
      texts.flatMap((text) => [...text.matchAll(/^\/\/ node_modules\/(\S+)/gm)].map((m) => packageOf(m[1]!))),
    );
    const noticesFile = join(dir, 'THIRD-PARTY-NOTICES.md');
    if (carried.size === 0) return expect(existsSync(noticesFile)).toBe(false);
    const notices = readFileSync(noticesFile, 'utf8');
    for (const name of carried) {
      const pkgDir = join(ROOT, 'node_modules', name);
      const licence = readdirSync(pkgDir).find((f) => /^licen[cs]e/i.test(f));
      expect(licence, name).toBeDefined();
      expect(notices, name).toContain(`## ${name} `);
      expect(notices, name).toContain(readFileSync(join(pkgDir, licence!), 'utf8').trim());
    }
  });

  it('the one-file ajv is what the schema tooling loads, and it carries what the packages export', async () => {
    const requireCjs = createRequire(import.meta.url);
    const { vendored } = requireCjs(join(ROOT, 'dist/vendor/ajv.cjs')) as { vendored: (id: string) => unknown };
    for (const id of [
      'ajv',
      'ajv/dist/2020.js',
      'ajv/dist/2019.js',
      'ajv-formats',
      'ajv/dist/refs/json-schema-draft-06.json',
      'ajv-draft-04/dist/refs/json-schema-draft-04.json',
    ]) {
      const own = vendored(id) as Record<string, unknown>;
      const pkg = requireCjs(id) as Record<string, unknown>;
      expect(Object.keys(own).sort(), id).toEqual(Object.keys(pkg).sort());
      expect(own, id).not.toBe(pkg);
    }
    expect(vendored('ajv/dist/standalone')).toBeUndefined();
    const factory = (await import(
      pathToFileURL(join(ROOT, 'dist/src/schema/ajv-factory.js')).href
    )) as typeof import('../src/schema/ajv-factory.js');
    const ajv = factory.newAjv('2020', {});
    expect(ajv).toBeInstanceOf((vendored('ajv/dist/2020.js') as { Ajv2020: new () => unknown }).Ajv2020);
    expect(factory.requireModule('ajv-formats')).toBe(vendored('ajv-formats'));
  });

  it('the bundled CLI audits the bundled reference server with --reference-server', async () => {
    const audit = await runCli(['--reference-server', '--checks', 'discover.*']);
    expect(audit.code).toBe(0);
    expect(audit.report?.target.command).toContain('dist/reference-server/main.js');
  });
});
