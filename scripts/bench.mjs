// Generated cases per second against the bundled reference server over stdio (the property-based valid-arguments check).
// Usage: npm run bench [-- --runs N --concurrency N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outputDir = mkdtempSync(join(tmpdir(), 'mtc-bench-'));
const extra = process.argv.slice(2);
const args = [join(root, 'dist/bin/mcp-tools-conformance.js'), '--checks', 'tools.err.tool-errors-in-result.property', '--runs', '1000', '--reporter', 'json', '--output-dir', outputDir, ...extra];
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const report = JSON.parse(readFileSync(join(outputDir, 'report.json'), 'utf8'));
const check = report.checks.find((c) => c.status === 'pass');
const calls = Object.values(report.stats.toolsCalled).reduce((sum, n) => sum + n, 0);
const seconds = check.durationMs / 1000;
console.log(`${calls} generated calls in ${seconds.toFixed(2)} s: ${Math.round(calls / seconds)} calls/s (${check.message})`);
