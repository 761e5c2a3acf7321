// What report.json says of tool calls that timed out and of how the audit paced its calls (src/protocol/call-turns.ts,
// call-pace.ts keep the counts).

/** How many tool calls may overlap, adapted to how the target copes (a loaded machine, a server that slows down). */
export interface PaceSummary {
  /** --concurrency: where the audit started. */
  max: number;
  /** The fewest calls it let overlap. */
  lowest: number;
  /** Times it halved: a call timed out, or answered far slower than that tool's first answers. */
  halvings: number;
}

/** What the audit's calls met: those that timed out among others, and what their retries alone got. */
export interface CallTimeouts {
  /** Calls that timed out while others were in flight, by tool. */
  amongOthers: Record<string, number>;
  /** Of those, retried alone with the full --timeout and answered then, by tool. */
  answeredAlone: Record<string, number>;
  /** Calls that timed out alone (a retry, or a call that runs alone), by tool. */
  alone: Record<string, number>;
  pace?: PaceSummary;
}
