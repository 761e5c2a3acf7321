import { effectPlace, type FileEffect, type SandboxSummary, type ToolEffects } from '../model/effects.js';
import type { RunReport } from '../model/report.js';

/** Changes named per tool in the table; the rest are counted. */
const NAMED_CHANGES = 4;

/** One row of "what each tool changed": the tool, how many of its calls changed something, and the changes named. */
export interface EffectsRow {
  tool: string;
  calls: number;
  callsWithChanges: number;
  changes: string;
}

/** The sandbox in one line: what was overlaid, and whether the server could reach the network. */
export function sandboxLine(sandbox: SandboxSummary): string {
  const overlays =
    sandbox.overlays.length === 0 ? 'no path of yours was named' : `copy-on-write over ${sandbox.overlays.join(', ')}`;
  const network = sandbox.network
    ? 'network allowed (--sandbox-network): effects outside this machine were possible'
    : 'no network';
  const outside = sandbox.outsideCalls.length + (sandbox.outsideCallsMore ?? 0);
  return (
    `writes thrown away after the audit (${overlays}, fresh HOME and TMPDIR); ${network}` +
    `${outside > 0 ? `; ${outside} change(s) made outside any call` : ''}`
  );
}

/**
 * A row per listed tool called in the sandbox, in listing order; a name the listing lacks (the probes of unknown names)
 * only when its call changed something.
 */
export function effectsRows(report: Pick<RunReport, 'effects' | 'stats'>): EffectsRow[] {
  const effects = report.effects ?? {};
  const listed = report.stats.toolsListed ?? [];
  const unlisted = Object.keys(effects).filter((name) => !listed.includes(name) && effects[name]!.changes.length > 0);
  const names = [...listed.filter((name) => name in effects), ...unlisted];
  return names.map((tool) => rowOf(tool, effects[tool]!));
}

function rowOf(tool: string, entry: ToolEffects): EffectsRow {
  const named = entry.changes
    .slice(0, NAMED_CHANGES)
    .map((c) => `${c.kind} ${effectPlace(c)}${sizeOf(c)}${c.late ? ' (late)' : ''}`);
  const rest = entry.changes.length - named.length + (entry.more ?? 0);
  const changes = named.length === 0 ? 'nothing' : `${named.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
  return { tool, calls: entry.calls, callsWithChanges: entry.callsWithChanges, changes };
}

function sizeOf(effect: FileEffect): string {
  if (effect.size === undefined || effect.type === 'directory') return effect.type === 'directory' ? ' (folder)' : '';
  const size = effect.size;
  return (
    ` (` +
    String(
      size < 1024
        ? `${size} B`
        : size < 1024 * 1024
          ? `${(size / 1024).toFixed(1)} kB`
          : `${(size / 1024 / 1024).toFixed(1)} MB`,
    ) +
    `)`
  );
}

/** "N of M calls": how many of the tool's calls changed something. */
export function callsChanged(row: EffectsRow): string {
  return `${row.callsWithChanges} of ${row.calls} call${row.calls === 1 ? '' : 's'} changed files`;
}
