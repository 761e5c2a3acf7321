import type { CheckResult, Status, Wire } from '../runner/types.js';

export interface RunReport {
  tool: { name: 'mcp-tools-conformance'; version: string };
  target: {
    transport: 'stdio' | 'http' | 'snapshot';
    command?: string;
    url?: string;
    file?: string;
  };
  wire: { protocolVersion: Wire | null; reason: string };
  /** Server identity as the target reported it (untrusted, for display only). */
  server?: { name?: string; version?: string };
  startedAt: string;
  durationMs: number;
  stats: { requests: number; toolsCalled: Record<string, number> };
  summary: Record<Status, number>;
  /** Settings of the property-based checks, when any was selected: rerun with the same seed to get the same cases. */
  property?: { seed: number; runs: number; replay?: string };
  /** Set when the audit could not complete: what happened and during which check. */
  aborted?: { reason: string; duringCheck?: string };
  checks: CheckResult[];
}

export interface Reporter {
  name: string;
  /** Called when a check finishes (live progress). */
  onResult?(result: CheckResult): void;
  /** Writes the final output; returns the path written, if any. */
  finish(report: RunReport, outputDir: string): Promise<string | undefined>;
}
