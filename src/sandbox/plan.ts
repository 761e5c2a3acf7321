import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWithin, outermost } from './paths.js';

export type PathKind = 'directory' | 'file' | 'missing';

/** What planOverlays asks of the filesystem (a fake one in tests). */
export interface PathProbe {
  /** Symlinks followed. */
  kind(path: string): PathKind;
  /** Only asked of existing paths. */
  realpath(path: string): string;
}

export interface OverlayPlanInput {
  argv: readonly string[];
  /** Only the variables the user gave, not the whole environment (PATH and the like must not count). */
  userEnv: Readonly<Record<string, string>>;
  cwd: string;
  /** For `~/` expansion. */
  home: string;
}

export interface OverlayPlan {
  /** Existing directories to overlay copy-on-write, none inside another, sorted. */
  overlays: string[];
  /** False when the cwd is `/` or a system tree: the server then runs in the scratch `work/` folder instead. */
  cwdOverlaid: boolean;
}

const SYSTEM_TREES = [
  '/usr',
  '/bin',
  '/sbin',
  '/etc',
  '/proc',
  '/sys',
  '/dev',
  '/boot',
  '/run',
  '/var/lib',
  '/var/cache',
  '/var/run',
  '/var/lock',
  '/snap',
  '/nix/store',
  '/gnu/store',
  '/lost+found',
];

/** Never overlaid: writes there fail read-only inside the sandbox, which is safe. */
export function isSystemPath(path: string): boolean {
  return path === '/' || /^\/lib[^/]*(\/|$)/.test(path) || SYSTEM_TREES.some((tree) => isWithin(path, tree));
}

export const hostProbe: PathProbe = {
  kind(path) {
    try {
      return statSync(path).isDirectory() ? 'directory' : 'file';
    } catch {
      return 'missing';
    }
  },
  realpath: (path) => realpathSync(path),
};

/** A word as a path, when it looks like one: absolute, or relative with a `/` or a leading `.`. */
export function wordPath(word: string, cwd: string, home: string): string | undefined {
  let text = word;
  if (text.startsWith('file://')) {
    try {
      text = fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  if (text === '~') text = home;
  else if (text.startsWith('~/')) text = home + text.slice(1);
  if (isAbsolute(text)) return resolve(text);
  if (text.includes('/') || text.startsWith('.')) return resolve(cwd, text);
  return undefined;
}

function argvWords(argv: readonly string[]): string[] {
  return argv.flatMap((word) => {
    const eq = word.indexOf('=');
    return eq > 0 ? [word, word.slice(eq + 1)] : [word];
  });
}

/** An env value is a word, and so is each part of a `:`-separated list. */
function envWords(userEnv: Readonly<Record<string, string>>): string[] {
  return Object.values(userEnv).flatMap((value) => {
    const parts = value.split(':').filter((part) => part !== '');
    return parts.length > 1 ? [value, ...parts] : [value];
  });
}

/**
 * The folder to overlay for a path the server was given: the folder itself, a file's folder, a missing path's parent.
 */
function folderFor(path: string, probe: PathProbe): string | undefined {
  const kind = probe.kind(path);
  if (kind === 'directory') return path;
  if (kind === 'file') return dirname(path);
  const parent = dirname(path);
  return parent !== path && probe.kind(parent) === 'directory' ? parent : undefined;
}

function overlayable(folder: string, probe: PathProbe): string | undefined {
  if (isSystemPath(folder)) return undefined;
  const real = probe.realpath(folder);
  return isSystemPath(real) ? undefined : real;
}

/**
 * Which paths a sandboxed server gets copy-on-write: those its command line and the user's environment point at, and
 * its working directory.
 */
export function planOverlays(input: OverlayPlanInput, probe: PathProbe = hostProbe): OverlayPlan {
  const found: string[] = [];
  for (const word of [...argvWords(input.argv), ...envWords(input.userEnv)]) {
    const path = wordPath(word, input.cwd, input.home);
    const folder = path === undefined ? undefined : folderFor(path, probe);
    const overlay = folder === undefined ? undefined : overlayable(folder, probe);
    if (overlay !== undefined) found.push(overlay);
  }
  const cwd = probe.kind(input.cwd) === 'directory' ? overlayable(resolve(input.cwd), probe) : undefined;
  if (cwd !== undefined) found.push(cwd);
  return { overlays: outermost(found), cwdOverlaid: cwd !== undefined };
}
