import type { CatalogRow } from '../../catalog/coverage-notes.js';
import type { CheckDefinition } from '../../runner/types.js';
import type { CheckResult } from '../../model/check.js';

/** How much of the requirements catalog the check registry covers, and how much of that this run exercised. */
export interface CoverageFigure {
  /**
   * `catalog`: measured against the requirements catalog; `registry`: the catalog was not found, only the registry's
   * own IDs are counted.
   */
  source: 'catalog' | 'registry';
  /** Server-side catalog requirements (role server or both); absent for `registry`. */
  requirements?: number;
  /** Requirements with at least one check (catalog), or distinct requirement IDs the checks name (registry). */
  covered: number;
  /** Of `covered`, those whose checks produced at least one outcome other than `skip` in this run. */
  exercised: number;
  /** Checks in the registry. */
  checks: number;
}

function decidedCheckIds(results: readonly CheckResult[]): Set<string> {
  return new Set(results.filter((r) => r.status !== 'skip').map((r) => r.id));
}

function requirementIds(definition: CheckDefinition): string[] {
  return [definition.id, ...(definition.covers ?? [])];
}

export function coverageFromCatalog(
  definitions: readonly CheckDefinition[],
  catalog: readonly CatalogRow[],
  results: readonly CheckResult[],
): CoverageFigure {
  const decided = decidedCheckIds(results);
  const serverSide = catalog.filter((row) => row.role === 'server' || row.role === 'both');
  let covered = 0;
  let exercised = 0;
  for (const row of serverSide) {
    const checks = definitions.filter((d) => requirementIds(d).includes(row.id));
    if (checks.length === 0) continue;
    covered += 1;
    if (checks.some((d) => decided.has(d.id))) exercised += 1;
  }
  return { source: 'catalog', requirements: serverSide.length, covered, exercised, checks: definitions.length };
}

export function coverageFromRegistry(
  definitions: readonly CheckDefinition[],
  results: readonly CheckResult[],
): CoverageFigure {
  const decided = decidedCheckIds(results);
  const all = new Set(definitions.flatMap(requirementIds));
  const exercised = new Set(definitions.filter((d) => decided.has(d.id)).flatMap(requirementIds));
  return { source: 'registry', covered: all.size, exercised: exercised.size, checks: definitions.length };
}
