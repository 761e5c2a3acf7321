import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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

export interface RunOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * Start the bundled CLI as a process of its own, as a user does, rather than in a warm one: for what only a fresh
   * process shows (start-up, the bundle itself, signals, how it ends). NODE_OPTIONS in `env` apply either way: warm
   * processes are kept apart by the NODE_OPTIONS they started with.
   */
  fresh?: boolean;
}

/**
 * Runs the built CLI; every report.json it writes is validated against data/report.schema.json. By default in a warm
 * CLI process (test/helpers/warm-cli.mjs: the build's unbundled output of the same `main`, one command line at a time,
 * stdout and stderr captured): a cold start costs ~0.8 s of CPU, and the suite runs ~400 of them.
 */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  const { outputDir, fullArgs } = withOutput(args);
  const env = { ...process.env, NO_COLOR: '1', ...options.env };
  const timeoutMs = options.timeoutMs ?? 45_000;
  const started = performance.now();
  const { code, stdout, stderr } =
    options.fresh || args[0] === 'scripted-server'
      ? await runFresh(fullArgs, env, timeoutMs)
      : await runWarm(fullArgs, env, timeoutMs);
  const wallMs = performance.now() - started;
  return { code, stdout, stderr, report: readReport(outputDir, args, code), outputDir, wallMs };
}

/** The command line with a fresh output folder and the JSON reporter, unless it names its own. */
function withOutput(args: string[]): { outputDir: string; fullArgs: string[] } {
  const outputDir = mkdtempSync(join(tmpdir(), 'mtc-'));
  const fullArgs = [...args];
  if (!args.includes('--output-dir')) fullArgs.push('--output-dir', outputDir);
  if (!args.includes('--reporter')) fullArgs.push('--reporter', 'json');
  return { outputDir, fullArgs };
}

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function runFresh(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ended> {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`CLI did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': output the CLI wrote just before exiting may still be in the pipe when it exits (a loaded
    // machine once cut a console report short here).
    child.on('close', (c) => {
      clearTimeout(timer);
      done(c);
    });
  });
  return { code, stdout, stderr };
}

/** The build's unbundled output of the CLI's `main` (dist/src/), which the warm processes and `runInProcess` load. */
const BUILT_MAIN = join(ROOT, 'dist/src/cli/main.js');
/** Idle warm processes by the NODE_OPTIONS they were started with ('' for none). */
const idle = new Map<string, ChildProcess[]>();

/**
 * A warm CLI process started with `nodeOptions` that is not running a command line; one is started, with the
 * environment of the run it is started for (a preloaded module reads it), when none is idle.
 */
async function warmProcess(nodeOptions: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const reused = idle.get(nodeOptions)?.pop();
  if (reused && reused.connected) return reused;
  const child = fork(join(ROOT, 'test/helpers/warm-cli.mjs'), [BUILT_MAIN], {
    cwd: ROOT,
    env,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((ready, fail) => {
    child.once('message', () => ready());
    child.once('exit', (code) => fail(new Error(`the warm CLI process exited with ${code} before it was ready`)));
  });
  child.removeAllListeners('exit');
  return child;
}

async function runWarm(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ended> {
  const nodeOptions = env.NODE_OPTIONS ?? '';
  const child = await warmProcess(nodeOptions, env);
  child.ref();
  child.channel?.ref();
  try {
    return await new Promise<Ended>((done, fail) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new Error(`CLI did not finish within ${timeoutMs} ms (warm process)`));
      }, timeoutMs);
      child.once('message', (ended: Ended) => {
        clearTimeout(timer);
        done(ended);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`the warm CLI process exited with ${code} during: ${args.join(' ')}`));
      });
      child.send({ args, env });
    });
  } finally {
    child.removeAllListeners('exit');
    child.removeAllListeners('message');
    // Idle warm processes do not keep the test process alive; they exit when it does (their IPC channel closes).
    child.unref();
    child.channel?.unref();
    if (!child.killed && child.connected && child.exitCode === null && child.signalCode === null)
      idle.set(nodeOptions, [...(idle.get(nodeOptions) ?? []), child]);
  }
}

/**
 * A report.json that an audit wrote (a fleet's, say, under servers/<name>/), validated against data/report.schema.json.
 */
export function readValidReport(path: string): RunReport {
  const report = JSON.parse(readFileSync(path, 'utf8')) as RunReport;
  if (!validateReport(report))
    throw new Error(`${path} does not match data/report.schema.json: ${ajv.errorsText(validateReport.errors)}`);
  return report;
}

/** The report.json an audit wrote into `outputDir`, validated against data/report.schema.json and the exit code. */
function readReport(outputDir: string, args: string[], code: number | null): RunReport | undefined {
  const reportPath = join(outputDir, 'report.json');
  if (!existsSync(reportPath)) return undefined;
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as RunReport;
  if (!validateReport(report)) {
    throw new Error(`report.json does not match data/report.schema.json: ${ajv.errorsText(validateReport.errors)}`);
  }
  // The report's exit code is the process's, except for baseline --write, which exits 0 once its file is written.
  if (args[0] !== 'baseline' && report.exitCode !== code)
    throw new Error(`report.json says exitCode ${report.exitCode}, the CLI exited ${code}`);
  return report;
}

type Main = (typeof import('../../src/cli/main.js'))['main'];
let inProcessMain: Promise<Main> | undefined;

/**
 * Runs the CLI's `main` in this process, from the build (its unbundled output, which vitest.config.ts leaves to Node's
 * own loader): the same parsing, engine and report as `runCli`, without a process and a cold start per audit (~0.2 s of
 * CPU each instead of ~1 s). For the tests that run a hundred audits and read only their reports and exit codes; what
 * the CLI prints is not captured.
 */
export async function runInProcess(args: string[]): Promise<Omit<CliRun, 'stdout' | 'stderr'>> {
  inProcessMain ??= (import(pathToFileURL(BUILT_MAIN).href) as Promise<unknown>).then(
    (m) => (m as { main: Main }).main,
  );
  const main = await inProcessMain;
  const { outputDir, fullArgs } = withOutput(args);
  const started = performance.now();
  const code = await main(fullArgs);
  const wallMs = performance.now() - started;
  return { code, report: readReport(outputDir, args, code), outputDir, wallMs };
}

export function byStatus(report: RunReport, ...statuses: string[]) {
  return report.checks.filter((c) => statuses.includes(c.status));
}

export function explain(report: RunReport | undefined): string {
  if (!report) return '(no report)';
  return (
    report.checks
      .filter((c) => c.status !== 'pass' && c.status !== 'skip')
      .map((c) => `${c.status} ${c.id}${c.tool ? ` [${c.tool}]` : ''}: ${c.message}`)
      .join('\n') || '(no fail/warn/error)'
  );
}

/**
 * Starts the reference server over HTTP (what `reference-server --http <args>` serves) and returns its URL and a stop
 * function. It is served by one host process that this test process shares (test/helpers/reference-host.mjs: the same
 * parsing, preparation and HTTP server of the build, each server on its own port with its own state), not by a process
 * of its own: a node process costs ~0.2 s of CPU to start, and its code runs cold. Tests that need the server's process
 * (its pid, signals, how it exits), or the bundle's own HTTP start-up, use `startReferenceHttpProcess`.
 */
export async function startReferenceHttp(...args: string[]): Promise<HttpServer> {
  const host = await referenceHost();
  const { key, url } = (await host.ask({ start: args })) as { key: number; url: string };
  return { url, stop: async () => void (await host.ask({ stop: key })) };
}

interface ReferenceHost {
  ask(message: object): Promise<unknown>;
}
let hostStarted: Promise<ReferenceHost> | undefined;

function referenceHost(): Promise<ReferenceHost> {
  hostStarted ??= new Promise<ReferenceHost>((ready, fail) => {
    const child = fork(join(ROOT, 'test/helpers/reference-host.mjs'), [join(ROOT, 'dist/reference/server')], {
      cwd: ROOT,
      execArgv: [],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const waiting = new Map<number, { done(value: unknown): void; fail(error: Error): void }>();
    let asked = 0;
    const idle = () => {
      // Idle, the host does not keep the test process alive; it exits when the test process does (its IPC channel
      // closes).
      if (waiting.size === 0) {
        child.unref();
        child.channel?.unref();
      }
    };
    child.on('message', (message: { ready?: true; id?: number; error?: string }) => {
      if (message.ready) {
        idle();
        return ready({
          ask: (request) =>
            new Promise((done, failed) => {
              const id = asked++;
              waiting.set(id, { done, fail: failed });
              child.ref();
              child.channel?.ref();
              child.send({ id, ...request });
            }),
        });
      }
      const asker = waiting.get(message.id!);
      waiting.delete(message.id!);
      idle();
      if (message.error) asker?.fail(new Error(`the reference host: ${message.error}`));
      else asker?.done(message);
    });
    child.once('exit', (code) => {
      hostStarted = undefined;
      const error = new Error(`the reference host exited with ${code}`);
      fail(error);
      for (const asker of waiting.values()) asker.fail(error);
    });
  });
  return hostStarted;
}

/**
 * The bundled reference server over HTTP in a process of its own (`node dist/reference-server/main.js --http <args>`).
 */
export function startReferenceHttpProcess(...args: string[]): Promise<HttpServer> {
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
