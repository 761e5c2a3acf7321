import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxError } from './errors.js';
import { isWithin } from './paths.js';

export interface ScratchLayout {
  root: string;
  home: string;
  tmp: string;
  work: string;
}

/** Where the scratch root may go: outside every overlaid path, since overlayfs refuses overlapping layers. */
async function scratchBase(mounts: readonly string[], home: string): Promise<string> {
  const blocking = new Set<string>();
  for (const base of [tmpdir(), '/var/tmp', join(home, '.cache')]) {
    const inside = (path: string) => mounts.find((mount) => isWithin(path, mount));
    let real: string;
    try {
      if (base === join(home, '.cache') && inside(base) === undefined) await mkdir(base, { recursive: true });
      real = await realpath(base);
    } catch {
      continue;
    }
    const outer = inside(real);
    if (outer === undefined) return real;
    blocking.add(outer);
  }
  const which = [...blocking].join(', ');
  throw new SandboxError(
    `cannot overlay ${which || 'the paths given'}: the sandbox's scratch folder (in ${tmpdir()}, /var/tmp or ` +
      `~/.cache) would lie ` +
      'inside it; set TMPDIR to a folder outside it',
  );
}

/**
 * A private folder (0700) with `home/`, `tmp/`, `work/`, and per overlaid path its `lower-N` link, `upper-N/`,
 * `work-N/`.
 */
export async function makeScratch(mounts: readonly string[], home: string): Promise<ScratchLayout> {
  const root = await mkdtemp(join(await scratchBase(mounts, home), 'mcp-sandbox-'));
  rememberScratch(root);
  try {
    const layout = { root, home: join(root, 'home'), tmp: join(root, 'tmp'), work: join(root, 'work') };
    for (const folder of [layout.home, layout.tmp, layout.work]) await mkdir(folder);
    for (const [i, mount] of mounts.entries()) {
      await symlink(mount, join(root, `lower-${i}`));
      await mkdir(join(root, `upper-${i}`));
      await mkdir(join(root, `work-${i}`));
    }
    return layout;
  } catch (error) {
    await removeScratch(root);
    forgetScratch(root);
    throw error;
  }
}

/** Everything in it is ours (the user namespace maps our uid), but overlayfs leaves `work-N/work` with mode 000. */
export async function removeScratch(root: string): Promise<void> {
  try {
    await rm(root, { recursive: true, force: true });
    return;
  } catch {
    /* made readable below */
  }
  await makeTraversable(root);
  await rm(root, { recursive: true, force: true });
}

async function makeTraversable(folder: string): Promise<void> {
  await chmod(folder, 0o700).catch(() => undefined);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) await makeTraversable(join(folder, entry.name));
}

/** Scratch folders not removed yet: removed when we exit without closing their sandbox. */
const left = new Set<string>();
let hooked = false;

export function rememberScratch(root: string): void {
  left.add(root);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const root of left) removeScratchSync(root);
  });
}

export function forgetScratch(root: string): void {
  left.delete(root);
}

function removeScratchSync(root: string): void {
  const traverse = (folder: string) => {
    try {
      chmodSync(folder, 0o700);
      for (const entry of readdirSync(folder, { withFileTypes: true }))
        if (entry.isDirectory()) traverse(join(folder, entry.name));
    } catch {
      /* removed below if it can be */
    }
  };
  try {
    traverse(root);
    rmSync(root, { recursive: true, force: true });
  } catch {
    /* nothing more can be done while exiting */
  }
}
