import type { ReplayTarget } from './replay.js';
import { DEFAULT_RUNS, DEFAULT_SEED } from './seeds.js';

export interface PropertyOptions {
  seed: number;
  /** Cases per tool and property. */
  runs: number;
  /** Generated calls in flight at once, across all property checks. */
  concurrency: number;
  /** Re-run one case only. */
  replay?: ReplayTarget;
  /** The command line that reaches the same target (`mcp-tools-conformance --stdio '…'`), for replay lines. */
  commandLine: string;
}

export const DEFAULT_PROPERTY_OPTIONS: PropertyOptions = {
  seed: DEFAULT_SEED,
  runs: DEFAULT_RUNS,
  concurrency: 4,
  commandLine: 'mcp-tools-conformance',
};
