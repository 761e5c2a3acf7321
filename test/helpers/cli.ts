import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RunReport } from '../../src/model/report.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/cli/mcp-tools-conformance.js');
export const REFERENCE = join(ROOT, 'dist/reference-server/main.js');
export const BUILT = existsSync(CLI) && existsSync(REFERENCE);

export function referenceCommand(...args: string[]): string {
  return [process.execPath, REFERENCE, ...args].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w}'`)).join(' ');
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  report?: RunReport;
  outputDir: string;
  wallMs: number;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'data/report.schema.json'), 'utf8')) as object);

/** Runs the built CLI; every report.json it writes is validated against data/report.schema.json. */
export async function runCli(args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const outputDir = mkdtempSync(join(tmpdir(), 'mtc-'));
  const fullArgs = [CLI, ...args];
  if (!args.includes('--output-dir')) fullArgs.push('--output-dir', outputDir);
  if (!args.includes('--reporter')) fullArgs.push('--reporter', 'json');
  const started = performance.now();
  const child = spawn(process.execPath, fullArgs, { env: { ...process.env, NO_COLOR: '1', ...options.env }, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`CLI did not finish within ${options.timeoutMs ?? 45_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 45_000);
    // 'close', not 'exit': output the CLI wrote just before exiting may still be in the pipe when it exits (a loaded
    // machine once cut a console report short here).
    child.on('close', (c) => {
      clearTimeout(timer);
      done(c);
    });
  });
  const wallMs = performance.now() - started;
  const reportPath = join(outputDir, 'report.json');
  let report: RunReport | undefined;
  if (existsSync(reportPath)) {
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as RunReport;
    if (!validateReport(report)) {
      throw new Error(`report.json does not match data/report.schema.json: ${ajv.errorsText(validateReport.errors)}`);
    }
    // The report's exit code is the process's, except for baseline --write, which exits 0 once its file is written.
    if (args[0] !== 'baseline' && report.exitCode !== code) throw new Error(`report.json says exitCode ${report.exitCode}, the CLI exited ${code}`);
  }
  return { code, stdout, stderr, report, outputDir, wallMs };
}

export function byStatus(report: RunReport, ...statuses: string[]) {
  return report.checks.filter((c) => statuses.includes(c.status));
}

export function explain(report: RunReport | undefined): string {
  if (!report) return '(no report)';
  return report.checks
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.status} ${c.id}${c.tool ? ` [${c.tool}]` : ''}: ${c.message}`)
    .join('\n') || '(no fail/warn/error)';
}

/** Starts the reference server over HTTP and returns its URL and a stop function. */
export function startReferenceHttp(...args: string[]): Promise<HttpServer> {
  return startHttpServer(REFERENCE, '--http', ...args);
}

export interface HttpServer {
  url: string;
  stop(): Promise<void>;
}

/** Runs a node script that prints "listening on <url>" once it serves; stop() ends it with SIGTERM. */
export async function startHttpServer(script: string, ...args: string[]): Promise<HttpServer> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${script} did not start: ${out}`)), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    });
    child.on('exit', (code) => fail(new Error(`${script} exited with ${code}: ${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
