import type { Outcome } from '../../src/model/check.js';
import { skip } from './outcome.js';

/** Probes made per tool, or why none could be made. */
export interface ToolProbes<P extends { tool: string }> {
  probes: readonly P[];
  why: string;
}

/** One outcome per probed tool, each naming its tool; a skip saying why when no tool could be probed. */
export function perToolOutcomes<P extends { tool: string }>(
  found: ToolProbes<P>,
  judge: (probe: P) => Outcome,
): Outcome[] {
  if (found.probes.length === 0) return [skip(found.why)];
  return found.probes.map((probe) => ({ ...judge(probe), tool: probe.tool }));
}
