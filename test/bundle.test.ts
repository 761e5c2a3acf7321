import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT, CLI, ROOT, runCli } from './helpers/cli.js';

/** The package's bin is the bundle `npm run build` writes to dist/cli/ (scripts/bundle-cli.mjs). */
const BUNDLE_DIR = dirname(CLI);
const bundled = BUILT ? readdirSync(BUNDLE_DIR).filter((f) => f.endsWith('.js')).map((f) => ({ file: f, text: readFileSync(join(BUNDLE_DIR, f), 'utf8') })) : [];
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; dependencies: Record<string, string> };

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe.skipIf(!BUILT)('the bundled CLI', () => {
  it('is the package bin', () => {
    expect(join(ROOT, Object.values(pkg.bin)[0]!)).toBe(CLI);
    expect(bundled.length).toBeGreaterThan(1);
  });

  it('finds every file a module looks for next to itself where tsc put it (module URLs kept)', () => {
    const urls = bundled.flatMap(({ text }) => [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]!));
    expect(urls).toContain('../src/schema/precompiled/load.js');
    expect(urls).toContain('../src/cli/target.js');
    for (const url of urls) expect(existsSync(fileURLToPath(new URL(url, `file://${BUNDLE_DIR}/`))), url).toBe(true);
    // A module URL left as the chunk's own would look for package.json, validators or the reference server in dist/cli/.
    const bare = bundled.filter(({ text }) => /(?<!, )import\.meta\.url/.test(text.replace(/new URL\("[^"]+", import\.meta\.url\)/g, '')));
    expect(bare.map((b) => b.file)).toEqual([]);
  });

  it('imports nothing but Node built-ins and the runtime dependencies', () => {
    const specifiers = bundled.flatMap(({ text }) => [
      ...[...text.matchAll(/^\s*(?:import|export)\b[^;\n]*?\bfrom\s*"([^"]+)"/gm)].map((m) => m[1]!),
      ...[...text.matchAll(/^\s*import\s*"([^"]+)"/gm)].map((m) => m[1]!),
      ...[...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/require[A-Za-z]*\("([^"]+)"/g)].map((m) => m[1]!),
    ]);
    const packages = new Set(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')).map(packageOf));
    expect(packages.size).toBeGreaterThan(0);
    for (const name of packages) expect(builtinModules.includes(name) || name in pkg.dependencies, name).toBe(true);
  });

  it('lists the same checks as the unbundled tsc output', async () => {
    const fromBundle = await runCli(['--list']);
    const { spawnSync } = await import('node:child_process');
    const unbundled = spawnSync(process.execPath, [join(ROOT, 'dist/bin/mcp-tools-conformance.js'), '--list'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(fromBundle.code).toBe(0);
    expect(unbundled.status).toBe(0);
    expect(fromBundle.stdout).toBe(unbundled.stdout);
    expect(fromBundle.stdout).toContain('tools.list.no-connection-variance');
  });
});
