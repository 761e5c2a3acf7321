import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli/mcp-tools-conformance.js');
export const REFERENCE = join(ROOT, 'dist/reference-server/main.js');
const HOOK = fileURLToPath(new URL('./rusage-hook.mjs', import.meta.url));

const CLOCK_TICKS = (() => {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

/**
 * CPU time of this process's children that have ended and been waited for, with their own such descendants (Linux's
 * cutime + cstime, in clock ticks); undefined elsewhere. Its growth over a run of the CLI is the CPU of the CLI and of
 * every target process it started (it waits for them), as long as no other child of the bench ends meanwhile.
 */
function endedChildrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Runs `node <script> ...args` to completion: wall time, the CPU time of the process and every process it started
 * (`treeCpuMs`, Linux only), and with `rusage` the process's own CPU time and peak RSS.
 */
export function runNode(script, args, { rusage = false, nodeBinary = process.execPath, env = {}, imports = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-bench-'));
  const usageFile = join(dir, 'rusage.json');
  const argv = [
    ...(rusage ? ['--import', HOOK] : []),
    ...imports.flatMap((module) => ['--import', module]),
    script,
    ...args,
  ];
  return collect(
    () =>
      spawn(nodeBinary, argv, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env, BENCH_RUSAGE_FILE: usageFile },
      }),
    () => {
      let usage;
      try {
        usage = rusage ? JSON.parse(readFileSync(usageFile, 'utf8')) : undefined;
      } catch {
        usage = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      return usage ? { cpuMs: (usage.userUs + usage.systemUs) / 1000, maxRssMb: usage.maxRssKb / 1024 } : {};
    },
  );
}

/**
 * Runs `program args` in `cwd` to completion: wall time and, on Linux, the CPU time of it and every process it started
 * and waited for (`treeCpuMs`). For programs that are not node scripts (npm).
 */
export function runProgram(program, args, { cwd = ROOT, env = process.env } = {}) {
  return collect(() => spawn(program, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/**
 * Starts a child and waits for it: its exit code, output and wall time, what `after` adds once it has ended, and on
 * Linux the CPU time of it and every process it started and waited for (`treeCpuMs`).
 */
function collect(start, after = () => ({})) {
  const started = performance.now();
  const cpuBefore = endedChildrenCpuMs();
  const child = start();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const cpuAfter = endedChildrenCpuMs();
      resolve({
        code,
        wallMs,
        stdout,
        stderr,
        ...after(),
        ...(cpuBefore !== undefined && cpuAfter !== undefined ? { treeCpuMs: cpuAfter - cpuBefore } : {}),
      });
    });
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Audits `targetArgs` with the built CLI (JSON report only) and reads report.json back. `options` go to runNode. */
export async function audit(targetArgs, extraArgs = [], options = {}) {
  const outputDir = mkdtempSync(join(tmpdir(), 'mtc-bench-report-'));
  try {
    const run = await runNode(CLI, [...targetArgs, '--reporter', 'json', '--output-dir', outputDir, ...extraArgs], {
      rusage: true,
      ...options,
    });
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
