/**
 * How deep an audit went: the tools it called out of those listed, and the checks it skipped for want of a tool it may
 * call (safe mode calls read-only tools only). Single audits and fleets show it alike.
 */
export interface AuditDepth {
  toolsListed: number;
  toolsCalled: number;
  /** Checks skipped because no listed tool could be called under the safety options. */
  skippedForNoCallableTool: number;
  /** The flag that would let the audit go deeper (e.g. `--allow-tools a,b`), when one would. */
  deeperWith?: string;
}
