import { resolve } from 'node:path';
import type { SandboxSummary } from '../model/effects.js';
import { CallTurns } from '../protocol/call-turns.js';
import { CallEffects } from '../sandbox/call-effects.js';
import {
  fillCacheCommand,
  looksLikeMissingNetwork,
  Sandbox,
  SandboxError,
  sandboxUnavailable,
  type SandboxState,
} from '../sandbox/index.js';
import { splitCommandLine } from '../transport/command-line.js';
import type { ProcessLaunch } from '../transport/stdio.js';
import type { CliOptions } from './args.js';
import { UsageError } from './usage-error.js';
import { referenceServerCommand } from './target.js';

/** One audit's sandbox (--sandbox): every process of the target starts in it, and each call's effects are recorded. */
export interface AuditSandbox {
  launch(): ProcessLaunch;
  effects: CallEffects<SandboxState>;
  turns: CallTurns;
  /** report.json's `sandbox`, once the audit is done. */
  summary(): SandboxSummary;
  /** Why a target that did not start may have needed the network, and how to do without it; undefined otherwise. */
  explainNotStarted(stderr: string): string | undefined;
  close(): Promise<void>;
}

/** --sandbox where this machine cannot give one: a usage error naming what is missing, before anything starts. */
export async function requireSandbox(): Promise<void> {
  const missing = await sandboxUnavailable();
  if (missing !== undefined) throw new UsageError(`--sandbox is not possible here: ${missing}`);
}

/**
 * Opens the sandbox of one audit of `options` (a --stdio target, or the reference server), or undefined without
 * --sandbox.
 */
export async function openAuditSandbox(options: CliOptions): Promise<AuditSandbox | undefined> {
  if (!options.sandbox) return undefined;
  const argv = splitCommandLine(options.stdio ?? referenceServerCommand());
  const network = options.sandbox.network;
  let sandbox: Sandbox;
  try {
    sandbox = await Sandbox.open({
      argv,
      env: { ...process.env, ...options.env },
      userEnv: options.env,
      cwd: resolve(options.cwd ?? process.cwd()),
      network,
      hidden: [resolve(options.outputDir)],
    });
  } catch (error) {
    if (error instanceof SandboxError) throw new UsageError(`--sandbox: ${error.message}`);
    throw error;
  }
  const effects = new CallEffects(sandbox);
  await effects.begin();
  return {
    launch: () => sandbox.spawnSpec(),
    effects,
    turns: new CallTurns({ allAlone: true, observer: effects }),
    summary: () => {
      const outside = effects.outsideCalls();
      return {
        kind: 'overlay',
        network,
        overlays: [...sandbox.overlays],
        outsideCalls: outside.changes,
        ...(outside.more > 0 ? { outsideCallsMore: outside.more } : {}),
      };
    },
    explainNotStarted(stderr) {
      if (network || !looksLikeMissingNetwork(stderr)) return undefined;
      const fill = fillCacheCommand(argv);
      return (
        `the sandbox has no network, and the server seems to have needed it to start: ` +
        `${fill ? `fill the package cache once with \`${fill}\`, or ` : ''}add --sandbox-network`
      );
    },
    close: () => sandbox.close(),
  };
}
