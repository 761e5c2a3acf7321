import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli/mcp-tools-conformance.js');
export const REFERENCE = join(ROOT, 'dist/reference-server/main.js');
const HOOK = fileURLToPath(new URL('./rusage-hook.mjs', import.meta.url));

/** Runs `node <script> ...args` to completion: wall time, and with `rusage` the process's CPU time and peak RSS. */
export function runNode(script, args, { rusage = false, nodeBinary = process.execPath, env = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-bench-'));
  const usageFile = join(dir, 'rusage.json');
  const argv = [...(rusage ? ['--import', HOOK] : []), script, ...args];
  const started = performance.now();
  const child = spawn(nodeBinary, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, BENCH_RUSAGE_FILE: usageFile } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let usage;
      try {
        usage = rusage ? JSON.parse(readFileSync(usageFile, 'utf8')) : undefined;
      } catch {
        usage = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({
        code,
        wallMs,
        stdout,
        stderr,
        ...(usage ? { cpuMs: (usage.userUs + usage.systemUs) / 1000, maxRssMb: usage.maxRssKb / 1024 } : {}),
      });
    });
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Audits `targetArgs` with the built CLI (JSON report only) and reads report.json back. */
export async function audit(targetArgs, extraArgs = []) {
  const outputDir = mkdtempSync(join(tmpdir(), 'mtc-bench-report-'));
  try {
    const run = await runNode(CLI, [...targetArgs, '--reporter', 'json', '--output-dir', outputDir, ...extraArgs], { rusage: true });
    let report;
    try {
      report = JSON.parse(readFileSync(join(outputDir, 'report.json'), 'utf8'));
    } catch {
      report = undefined;
    }
    return { ...run, report };
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}
