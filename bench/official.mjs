import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Pinned: the official suite, and the Node 22 it needs (from npm, into bench/.cache, never the project's dependencies).
 */
export const OFFICIAL_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
const NODE_PACKAGE = 'node@22';
const CACHE = fileURLToPath(new URL('./.cache/', import.meta.url));
const NODE22 = join(CACHE, 'node_modules/node/bin/node');
const SUITE = join(CACHE, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Installs both packages into bench/.cache when missing; returns why it could not, or undefined. */
export function ensureOfficialSuite() {
  if (!existsSync(NODE22) || !existsSync(SUITE)) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(
      npm,
      [
        'install',
        '--prefix',
        CACHE,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        NODE_PACKAGE,
        OFFICIAL_PACKAGE,
      ],
      {
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    if (install.status !== 0)
      return (
        `npm install of ${NODE_PACKAGE} and ${OFFICIAL_PACKAGE} failed: ` +
        `${(install.stderr || install.error?.message || '').trim().split('\n').slice(-2).join(' ')}`
      );
  }
  const version = spawnSync(NODE22, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || !/^v22\./.test(version.stdout))
    return `the node@22 package did not give a working Node 22 (${(version.stdout || version.stderr || '').trim()})`;
  return undefined;
}

/** Runs the official server suite (active scenarios) against `url`: wall time, checks run and how many passed. */
export function runOfficialSuite(url) {
  const outputDir = mkdtempSync(join(tmpdir(), 'mtc-bench-official-'));
  const started = performance.now();
  const child = spawn(NODE22, [SUITE, 'server', '--url', url, '--output-dir', outputDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const checks = readChecks(outputDir);
      rmSync(outputDir, { recursive: true, force: true });
      resolve({
        code,
        wallMs,
        checks: checks.length,
        passed: checks.filter((c) => c.status === 'SUCCESS').length,
        output,
      });
    });
  });
}

/** Every check object of every scenario's checks.json, INFO entries (logs of traffic) excluded. */
function readChecks(outputDir) {
  const checks = [];
  for (const scenario of readdirSync(outputDir)) {
    const file = join(outputDir, scenario, 'checks.json');
    if (!existsSync(file)) continue;
    try {
      for (const check of JSON.parse(readFileSync(file, 'utf8'))) if (check.status !== 'INFO') checks.push(check);
    } catch {
      // a scenario that crashed leaves no readable file: it ran no check we can count
    }
  }
  return checks;
}
