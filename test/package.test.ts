import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../src/model/report.js';
import { BUILT, ROOT } from './helpers/cli.js';

/**
 * The package as npm users get it: `npm pack`, then the tarball installed into an empty folder, offline, and its bin
 * run against its own reference server. The pack reuses the dist the test run built (--ignore-scripts skips prepack).
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

/** npm's own variables from an `npm test` around us would point the nested npm at this project. */
const npmEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(name),
  ),
);

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...npmEnv, NO_COLOR: '1' }, timeout: 120_000 });
}

/**
 * `npm ci` caches the dependencies' tarballs, not the registry metadata that resolving them afresh needs, so the
 * empty folder gets a lockfile with our runtime dependencies as package-lock.json pins them: npm then finds every
 * tarball in its cache by integrity.
 */
function seedLockfile(dir: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const runtime = Object.entries(lock.packages).filter(
    ([path, entry]) => path.startsWith('node_modules/') && !entry.dev,
  );
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'empty-project', private: true })}\n`);
  writeFileSync(
    join(dir, 'package-lock.json'),
    String(
      JSON.stringify(
        {
          name: 'empty-project',
          lockfileVersion: 3,
          requires: true,
          packages: { '': {}, ...Object.fromEntries(runtime) },
        },
        null,
        2,
      ),
    ) + `\n`,
  );
}

describe.skipIf(!BUILT)('the npm package', () => {
  let dir: string;
  let tarball: string;
  let packed: string[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mtc-package-'));
    const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(dir, info!.filename);
    packed = info!.files.map((f) => f.path);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds itself when packed (prepack runs the build)', () => {
    expect(pkg.scripts.prepack).toMatch(/npm run build\b/);
  });

  it('ships the built CLI, the reference server and the report schema; no test fixtures, sources, tests or build records', () => {
    for (const file of [
      ...Object.values(pkg.bin),
      'dist/reference-server/main.js',
      'dist/src/cli/target.js',
      'dist/src/schema/precompiled/wire-validators-2026-07-28.cjs',
      'data/report.schema.json',
      'README.md',
    ]) {
      expect(packed, file).toContain(file);
    }
    expect(
      packed.filter((f) =>
        /\.fixture\.js|test-support\.js|\.test\.|\.ts$|^test\/|^src\/|^dist\/\.precompiled\.json$/.test(f),
      ),
    ).toEqual([]);
  });

  it(
    'installed from the tarball into an empty folder, offline, audits its own reference server over stdio',
    { timeout: 180_000 },
    (ctx) => {
      const app = join(dir, 'app');
      mkdirSync(app);
      seedLockfile(app);
      const install = npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
      if (install.status !== 0 && /ENOTCACHED|only-if-cached/.test(install.stderr)) {
        const lines = install.stderr.split('\n').map((l) => l.replace(/^npm error /, ''));
        const why = lines.find((l) => l.includes('only-if-cached')) ?? lines.find((l) => l.includes('ENOTCACHED'));
        const reason =
          `npm install --offline cannot resolve the dependencies from the npm cache (run npm ci ` + `first): ${why}`;
        console.warn(`skipping the packed-package test: ${reason}`);
        ctx.skip(reason);
      }
      expect(install.status, install.stderr).toBe(0);
      const installed = join(app, 'node_modules', pkg.name);
      expect(existsSync(join(installed, 'src')), 'sources are not installed').toBe(false);

      const server = join(installed, 'dist/reference-server/main.js');
      const run = spawnSync(
        'npx',
        [
          '--no-install',
          pkg.name,
          '--stdio',
          `${process.execPath} ${server}`,
          '--reporter',
          'console,json',
          '--output-dir',
          'out',
        ],
        {
          cwd: app,
          encoding: 'utf8',
          env: { ...npmEnv, NO_COLOR: '1' },
          timeout: 120_000,
        },
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/Summary: \d+ check outcome/);
      const report = JSON.parse(readFileSync(join(app, 'out', 'report.json'), 'utf8')) as RunReport;
      expect(report.tool).toEqual({ name: pkg.name, version: pkg.version });
      expect(report.target.command).toContain(join('node_modules', pkg.name, 'dist/reference-server/main.js'));
      expect(report.summary.fail).toBe(0);
      expect(report.summary.pass).toBeGreaterThan(50);
    },
  );
});
