import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { bwrapArgs } from './bwrap-args.js';
import { firstLine } from './errors.js';
import { startHolder } from './holder.js';
import { forgetScratch, rememberScratch, removeScratch } from './scratch.js';

export interface SandboxTools {
  bwrap: string;
  unshare: string;
  nsenter: string;
}

/** The command's full path on `path` (a PATH value), if it is there and executable. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export function sandboxTools(path = process.env.PATH ?? ''): SandboxTools | string {
  const bwrap = findOnPath('bwrap', path);
  if (bwrap === undefined) {
    return (
      '--sandbox needs bubblewrap, which is not on PATH: install it (apt-get install bubblewrap / dnf install ' +
      'bubblewrap)'
    );
  }
  const unshare = findOnPath('unshare', path);
  const nsenter = findOnPath('nsenter', path);
  if (unshare === undefined || nsenter === undefined) {
    return (
      `--sandbox needs ${unshare === undefined ? 'unshare' : 'nsenter'} (util-linux), which is not on PATH: ` +
      `install util-linux`
    );
  }
  return { bwrap, unshare, nsenter };
}

const memo = new Map<string, Promise<string | undefined>>();

/**
 * Undefined when --sandbox can work here, else one line naming what is missing and how to get it. Memoised per PATH.
 */
export function sandboxUnavailable(): Promise<string | undefined> {
  const key = `${process.platform}\0${process.env.PATH ?? ''}`;
  let answer = memo.get(key);
  if (answer === undefined) {
    answer = probe();
    memo.set(key, answer);
  }
  return answer;
}

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows' };

async function probe(): Promise<string | undefined> {
  if (process.platform !== 'linux') {
    const name = PLATFORM_NAMES[process.platform] ?? process.platform;
    return (
      `--sandbox needs Linux (bubblewrap and user namespaces), not ${name}: run the audit in a Linux VM or ` +
      `container`
    );
  }
  const tools = sandboxTools();
  if (typeof tools === 'string') return tools;
  const userns = await run(tools.unshare, ['-Urm', 'true']);
  if (userns !== undefined) {
    return (
      `--sandbox needs unprivileged user namespaces, which are refused (unshare -Urm: ${userns}): allow them with ` +
      'sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu sysctl kernel.apparmor_restrict_unprivileged_userns=0'
    );
  }
  return overlayAndBwrap(tools);
}

/** A throwaway sandbox: an overlay in a holder's namespace, and bubblewrap run in it. */
async function overlayAndBwrap(tools: SandboxTools): Promise<string | undefined> {
  const root = await mkdtemp(join(tmpdir(), 'mcp-sandbox-probe-'));
  rememberScratch(root);
  try {
    const mountpoint = join(root, 'm');
    for (const folder of [mountpoint, join(root, 'upper-0'), join(root, 'work-0')]) await mkdir(folder);
    await symlink(mountpoint, join(root, 'lower-0'));
    let holder;
    try {
      holder = await startHolder(tools.unshare, root, [mountpoint]);
    } catch (error) {
      return (
        `--sandbox needs overlayfs mounted in a user namespace (Linux 5.11 or later; this is ${release()}), ` +
        `which failed: ${(error as Error).message}`
      );
    }
    try {
      const layout = {
        scratch: root,
        scratchFolders: [],
        mounts: [mountpoint],
        hidden: [],
        cwd: mountpoint,
        network: false,
      };
      const args = bwrapArgs({ ...layout, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 });
      const nsenter = [
        '--target',
        String(holder.pid),
        '--user',
        '--mount',
        '--preserve-credentials',
        '--',
        tools.bwrap,
      ];
      const failed = await run(tools.nsenter, [...nsenter, ...args, '--', 'true']);
      return failed === undefined ? undefined : `--sandbox cannot run bubblewrap inside its user namespace: ${failed}`;
    } finally {
      await holder.stop();
    }
  } finally {
    await removeScratch(root);
    forgetScratch(root);
  }
}

/** Undefined when the command succeeded, else the first line of its stderr (or how it ended). */
function run(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000, env: { ...process.env, LC_ALL: 'C' } }, (error, _stdout, stderr) => {
      resolve(error === null ? undefined : firstLine(stderr) || error.message);
    });
  });
}
