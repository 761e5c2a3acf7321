import { readFile } from 'node:fs/promises';

/**
 * The order in which a fleet starts its servers. With `--jobs` lanes, the servers that run alone at the end make a
 * fleet slower than its CPU allows; starting the longest first (by their times in the previous fleet.json of the same
 * output folder) leaves the short ones for the end. A server without a previous time goes first, in file order (a new
 * one may be slow); the others follow, longest first, file order breaking ties.
 */
export function startOrder(
  indexes: readonly number[],
  names: readonly string[],
  previousMs: ReadonlyMap<string, number>,
): number[] {
  const unknown = indexes.filter((i) => !previousMs.has(names[i]!));
  const known = indexes
    .filter((i) => previousMs.has(names[i]!))
    .sort((a, b) => previousMs.get(names[b]!)! - previousMs.get(names[a]!)! || a - b);
  return [...unknown, ...known];
}

/** Each server's time in a fleet.json, by its name; none when the file is missing or not a fleet report. */
export async function previousDurations(fleetJson: string): Promise<Map<string, number>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(fleetJson, 'utf8'));
  } catch {
    return new Map();
  }
  const servers = (parsed as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers)) return new Map();
  const times = servers.flatMap((s: { name?: unknown; durationMs?: unknown; outcome?: unknown }) =>
    typeof s?.name === 'string' &&
    typeof s.durationMs === 'number' &&
    Number.isFinite(s.durationMs) &&
    s.outcome !== 'skipped'
      ? [[s.name, s.durationMs] as const]
      : [],
  );
  return new Map(times);
}
