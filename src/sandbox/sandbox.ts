import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { FileEffect } from '../model/effects.js';
import { sandboxTools, sandboxUnavailable, type SandboxTools } from './availability.js';
import { bwrapArgs, type Hidden } from './bwrap-args.js';
import {
  compareSnapshots,
  Fingerprints,
  takeSnapshot,
  type EntryState,
  type SandboxState,
  type WalkRoot,
} from './effects.js';
import { SandboxError } from './errors.js';
import { startHolder, type Holder } from './holder.js';
import { packageCaches, type PackageCaches } from './package-caches.js';
import { isWithin, outermost } from './paths.js';
import { isSystemPath, planOverlays } from './plan.js';
import { forgetScratch, makeScratch, removeScratch, type ScratchLayout } from './scratch.js';

export interface SandboxRequest {
  /** The server's command line. */
  argv: string[];
  /** The environment the server would get outside. */
  env: NodeJS.ProcessEnv;
  /** The variables the user gave (their values may name paths to overlay). */
  userEnv: Record<string, string>;
  cwd: string;
  network: boolean;
  /** Folders never visible inside (our report output, fleet private folders), even within an overlaid path. */
  hidden: readonly string[];
}

/** How to start one server process in the sandbox (spawn it detached; its stdio is the server's). */
export interface SpawnSpec {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Unset inside unless the user gave them: they would point at the real home's folders, which are read-only there. */
const XDG_FOLDERS = ['XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME'];

/**
 * Sockets through which a server could act outside (systemd and D-Bus, ssh-agent, tmux, X11, docker): a socket stays
 * connectable on a read-only mount. Abstract sockets are out of reach anyway (own network namespace).
 */
function sessionSockets(env: NodeJS.ProcessEnv, uid: number): string[] {
  const runtime =
    env.XDG_RUNTIME_DIR !== undefined && isWithin(env.XDG_RUNTIME_DIR, '/run/user') ? [env.XDG_RUNTIME_DIR] : [];
  const tmux = env.TMUX_TMPDIR ? [join(env.TMUX_TMPDIR, `tmux-${uid}`)] : [];
  const agent = env.SSH_AUTH_SOCK ? [env.SSH_AUTH_SOCK] : [];
  const fixed = [
    `/run/user/${uid}`,
    '/run/dbus/system_bus_socket',
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/tmp/.X11-unix',
    `/tmp/tmux-${uid}`,
  ];
  return [...fixed, ...runtime, ...tmux, ...agent];
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * A throwaway Linux sandbox for the processes of one audit: they share one copy-on-write view of the paths the server
 * was pointed at (and of the package caches), a scratch HOME and TMPDIR, no network unless allowed, while nothing
 * outside changes. The overlays are mounted once, in the namespaces of a holder process each server process enters.
 */
export class Sandbox {
  readonly overlays: readonly string[];
  readonly network: boolean;
  readonly scratch: string;
  private readonly cwdInside: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly roots: WalkRoot[];
  private readonly fingerprints = new Fingerprints();
  private readonly lowers = new Map<string, Map<string, EntryState | null>>();
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly request: SandboxRequest,
    private readonly tools: SandboxTools,
    private readonly layout: ScratchLayout,
    private readonly holder: Holder,
    private readonly mounts: readonly string[],
    plan: { overlays: string[]; cwdOverlaid: boolean },
    caches: PackageCaches & { real: string[] },
  ) {
    this.overlays = plan.overlays;
    this.network = request.network;
    this.scratch = layout.root;
    this.cwdInside = plan.cwdOverlaid ? resolve(request.cwd) : layout.work;
    this.env = { ...request.env };
    for (const name of XDG_FOLDERS) if (!(name in request.userEnv)) delete this.env[name];
    Object.assign(this.env, caches.env, { HOME: layout.home, TMPDIR: layout.tmp, TMP: layout.tmp, TEMP: layout.tmp });
    this.env.PWD = this.cwdInside;
    const unreported = [...caches.real, ...request.hidden.map(realOrResolved), ...sessionSockets(request.env, uid())];
    this.roots = [
      ...plan.overlays.map((path) => this.overlayRoot(path, unreported)),
      { kind: 'scratch' as const, label: '$HOME', dir: layout.home },
      { kind: 'scratch' as const, label: '$TMPDIR', dir: layout.tmp },
      ...(plan.cwdOverlaid ? [] : [{ kind: 'scratch' as const, label: '$CWD', dir: layout.work }]),
    ];
  }

  static async open(request: SandboxRequest): Promise<Sandbox> {
    const unavailable = await sandboxUnavailable();
    if (unavailable !== undefined) throw new SandboxError(unavailable);
    const tools = sandboxTools();
    if (typeof tools === 'string') throw new SandboxError(tools);
    const home = request.env.HOME || homedir();
    const plan = planOverlays({ argv: request.argv, userEnv: request.userEnv, cwd: request.cwd, home });
    const caches = packageCaches(request.env, home, request.network);
    const real = outermost(caches.paths.map(realOrResolved).filter((path) => !isSystemPath(path)));
    const mounts = outermost([...plan.overlays, ...real]);
    const layout = await makeScratch(mounts, home);
    let holder: Holder;
    try {
      holder = await startHolder(tools.unshare, layout.root, mounts);
    } catch (error) {
      await removeScratch(layout.root);
      throw error;
    }
    return new Sandbox(request, tools, layout, holder, mounts, plan, { ...caches, real });
  }

  private overlayRoot(path: string, unreported: readonly string[]): WalkRoot {
    const index = this.mounts.findIndex((mount) => isWithin(path, mount));
    const mount = this.mounts[index]!;
    const skip = new Set(
      unreported.filter((other) => other !== path && isWithin(other, path)).map((other) => relative(path, other)),
    );
    return {
      kind: 'overlay',
      label: path,
      upper: join(this.layout.root, `upper-${index}`, relative(mount, path)),
      merged: `/proc/${this.holder.pid}/root${path}`,
      lower: path,
      skip,
    };
  }

  /** The hidden folders and session sockets that exist now. */
  private hiddenNow(): Hidden[] {
    const hidden = new Map<string, Hidden>();
    for (const path of [...this.request.hidden, ...sessionSockets(this.request.env, uid())]) {
      let directory: boolean;
      try {
        directory = statSync(path).isDirectory();
      } catch {
        continue;
      }
      const real = realOrResolved(path);
      if (real !== '/') hidden.set(real, { path: real, directory });
    }
    return [...hidden.values()];
  }

  /**
   * One server process: `nsenter` into the holder's namespaces, then bubblewrap. Spawn it detached and trackChild it.
   */
  spawnSpec(): SpawnSpec {
    if (this.closing !== undefined) throw new SandboxError('the sandbox is closed');
    // Its pid could be another process's by now.
    if (!this.holder.alive) throw new SandboxError('the sandbox ended: its holder process is gone');
    const { layout } = this;
    const bwrap = bwrapArgs({
      scratch: layout.root,
      scratchFolders: [layout.home, layout.tmp, layout.work],
      mounts: this.mounts,
      hidden: this.hiddenNow(),
      cwd: this.cwdInside,
      network: this.network,
      uid: uid(),
      gid: process.getgid?.() ?? 0,
    });
    // --preserve-credentials: without it nsenter calls setgroups, which the user namespace refuses to a non-root user.
    const enter = ['--target', String(this.holder.pid), '--user', '--mount', '--preserve-credentials', '--'];
    return {
      file: this.tools.nsenter,
      args: [...enter, this.tools.bwrap, ...bwrap, '--', ...this.request.argv],
      env: { ...this.env },
      cwd: layout.root,
    };
  }

  /** What the writable paths hold now (overlaid paths as their upper layers name them, scratch folders whole). */
  snapshot(): Promise<SandboxState> {
    if (this.closing !== undefined) return Promise.reject(new SandboxError('the sandbox is closed'));
    return takeSnapshot(this.roots, this.fingerprints, this.lowers);
  }

  /** What changed between two snapshots of this sandbox, sorted by root then path. */
  changes(before: SandboxState, after: SandboxState): FileEffect[] {
    return compareSnapshots(before, after, this.lowers);
  }

  /** Ends the holder and removes the scratch folder; call it once the server processes have ended. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.holder.stop();
      await removeScratch(this.layout.root);
      forgetScratch(this.layout.root);
    })();
    return this.closing;
  }
}

function uid(): number {
  return process.getuid?.() ?? 0;
}
