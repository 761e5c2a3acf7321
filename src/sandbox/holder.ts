import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { killGroup, trackChild } from '../transport/children.js';
import { SandboxError, firstLine } from './errors.js';

/**
 * Run in a new user and mount namespace, in the scratch folder: each overlay's lower layer is `lower-N` (a symlink to
 * the path, so that no path has to be escaped in mount options), mounted over the path itself. `-n`: no utab entry.
 * `userxattr`: without it, removing a folder of the lower layer fails (EIO), trusted.* xattrs being refused to us.
 */
const SCRIPT = `set -e
cd "$1"
shift
i=0
for mountpoint; do
  mount -n -t overlay overlay -o "lowerdir=lower-$i,upperdir=upper-$i,workdir=work-$i,userxattr" "$mountpoint"
  i=$((i + 1))
done
echo ready
exec cat >/dev/null`;

const START_TIMEOUT_MS = 10_000;
const STOP_WAIT_MS = 2_000;

/** The process whose namespaces every server process of a sandbox enters; it lives until its stdin closes. */
export interface Holder {
  readonly pid: number;
  /** False once it ended (stopped, or killed by someone else). */
  readonly alive: boolean;
  stop(): Promise<void>;
}

/** `mountpoints[i]` gets the overlay of `<scratch>/{lower,upper,work}-i`. */
export async function startHolder(unshare: string, scratch: string, mountpoints: readonly string[]): Promise<Holder> {
  const child = spawn(
    unshare,
    ['-Urm', '--propagation', 'private', '/bin/sh', '-c', SCRIPT, 'holder', scratch, ...mountpoints],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { PATH: `${process.env.PATH ?? ''}:/usr/sbin:/usr/bin:/sbin:/bin`, LC_ALL: 'C' },
    },
  );
  trackChild(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    await ready(child);
  } catch (error) {
    if (child.pid !== undefined) {
      killGroup(child, 'SIGKILL');
      await exited;
    }
    throw error;
  }
  // The holder must not keep our event loop alive: it ends with us (its stdin closes) or when stopped.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as Socket | null)?.unref();
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid!,
    get alive() {
      return alive();
    },
    async stop() {
      if (!alive()) return;
      // Referenced again while we wait for its end: an event loop with nothing else to do would not wait.
      child.ref();
      child.stdin?.destroy();
      killGroup(child, 'SIGKILL');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((done) => (timer = setTimeout(done, STOP_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => fail(`the sandbox did not start within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    const fail = (message: string) => {
      clearTimeout(timer);
      reject(new SandboxError(message));
    };
    child.stdin!.on('error', () => {
      /* EPIPE when the holder failed: its exit says why */
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (error) =>
      fail(`cannot start unshare: ${(error as NodeJS.ErrnoException).code ?? error.message}`),
    );
    // stderr may still be in its pipe when the process is reported gone.
    const stderrClosed = new Promise((done) => child.stderr!.once('close', done));
    child.once('exit', (code, signal) => {
      void stderrClosed.then(() => {
        const why = firstLine(stderr) || (signal ? `killed by ${signal}` : `exit code ${code}`);
        fail(`cannot set up the sandbox: ${why}`);
      });
    });
  });
}
