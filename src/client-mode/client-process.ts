import { spawn } from 'node:child_process';
import type { ClientExit } from '../model/client-observation.js';
import { killGroup, trackChild } from '../transport/children.js';
import { splitCommandLine } from '../transport/command-line.js';

/** Stdout kept (driver lines and noise: lines, characters per line, characters in all), and stderr kept (its end). */
const MAX_STDOUT_LINES = 10_000;
const MAX_LINE_CHARS = 1_000_000;
const MAX_STDOUT_CHARS = 32_000_000;
const STDERR_KEPT_CHARS = 16_000;
/** How long a client that exited (or was killed) may take to close its output before the run goes on without it. */
const EXIT_WAIT_MS = 1_000;

export interface ClientRun {
  exit: ClientExit;
  stdoutLines: string[];
  stderr: string;
  durationMs: number;
}

/**
 * Runs the client command (split like a shell, spawned without one, in a process group of its own) until it exits or
 * `deadline` passes; then kills the whole group, so that nothing it started (a stdio server, a wrapper's child) is
 * left behind. `onSpawn` sees the process, for interruption handling.
 */
export function runClient(
  commandLine: string,
  extraArgs: readonly string[],
  env: NodeJS.ProcessEnv,
  deadline: number,
): Promise<ClientRun> {
  const started = performance.now();
  const [command, ...args] = splitCommandLine(commandLine);
  if (!command)
    return Promise.resolve({
      exit: { kind: 'not-started', message: 'the client command is empty' },
      stdoutLines: [],
      stderr: '',
      durationMs: 0,
    });
  return new Promise((resolve) => {
    const child = spawn(command, [...args, ...extraArgs], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    trackChild(child);
    const stdoutLines: string[] = [];
    let partial = '';
    let kept = 0;
    let stderr = '';
    child.stdout.setEncoding('utf8');
    // Past the limits the rest is read and dropped, so that a client flooding its stdout neither stalls nor fills
    // memory.
    child.stdout.on('data', (text: string) => {
      if (kept >= MAX_STDOUT_CHARS || stdoutLines.length >= MAX_STDOUT_LINES) return;
      const parts = (partial + text).split('\n');
      partial = parts.pop()!.slice(0, MAX_LINE_CHARS);
      for (const line of parts) {
        if (stdoutLines.length >= MAX_STDOUT_LINES || kept >= MAX_STDOUT_CHARS) break;
        const cut = line.slice(0, MAX_LINE_CHARS);
        stdoutLines.push(cut);
        kept += cut.length;
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEPT_CHARS);
    });
    let settled = false;
    const finish = (exit: ClientExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup(child, 'SIGKILL');
      if (partial.trim() !== '' && stdoutLines.length < MAX_STDOUT_LINES) stdoutLines.push(partial);
      resolve({ exit, stdoutLines, stderr, durationMs: Math.round(performance.now() - started) });
    };
    // A client killed at the deadline is reported once it is gone (a SIGKILL takes effect a moment later on a loaded
    // machine), through the exit handler below, as timed out.
    let killedAs: ClientExit | undefined;
    const timer = setTimeout(
      () => {
        killedAs = { kind: 'timed-out', message: 'the client did not exit before the --max-duration budget ran out' };
        killGroup(child, 'SIGKILL');
        setTimeout(() => finish(killedAs!), EXIT_WAIT_MS).unref();
      },
      Math.max(0, deadline - Date.now()),
    );
    child.once('error', (error) =>
      finish({ kind: 'not-started', message: `the client command could not be started: ${error.message}` }),
    );
    // When the client exits, what it started (a stdio server holding our stderr, say) goes too; 'close' then comes
    // once stdout and stderr are drained, so every line the client wrote is read.
    child.once('exit', (code, signal) => {
      killGroup(child, 'SIGKILL');
      const exit: ClientExit = killedAs ?? { kind: 'exited', code, signal };
      child.once('close', () => finish(exit));
      setTimeout(() => finish(exit), EXIT_WAIT_MS).unref();
    });
  });
}
