/**
 * How deep an audit went: the tools it called out of those listed, and the checks it skipped for want of a tool it may
 * call (safe mode calls read-only tools only). Single audits and fleets show it alike.
 */
export interface AuditDepth {
  toolsListed: number;
  toolsCalled: number;
  /** Checks skipped because no listed tool could be called under the safety options. */
  skippedForNoCallableTool: number;
  /** The flag that would let the audit go deeper (`--sandbox`, or `--allow-tools a,b`), when one would. */
  deeperWith?: string;
  /** When `deeperWith` allows tools outright: those it would call that are not annotated read-only (on real data). */
  notReadOnly?: string[];
  /** The server ran in a sandbox (--sandbox): every listed tool was callable. */
  sandboxed?: true;
  /** Tool calls that timed out: how many, of which tools, how many a retry alone answered, and what would help. */
  timeouts?: DepthTimeouts;
}

export interface DepthTimeouts {
  calls: number;
  tools: string[];
  /** Calls that timed out among others and were answered when retried alone. */
  answeredAlone: number;
  /** Tools whose calls timed out even alone: their checks skipped. */
  stillTimedOut: string[];
  /** Flags that would help with those: a longer --timeout, or --skip-tools. */
  helpWith?: string;
}

/** The way deeper that changes none of the user's data: a stdio server run in a sandbox. */
export const SANDBOX_FLAG = '--sandbox';
