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
}

/** The way deeper that changes none of the user's data: a stdio server run in a sandbox. */
export const SANDBOX_FLAG = '--sandbox';
