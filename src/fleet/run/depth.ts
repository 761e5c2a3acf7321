import type { AuditDepth } from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';

/** The words of CheckContext.callPolicy, which every check skipped for want of a tool it may call quotes. */
const NO_CALLABLE_TOOL = /only tools annotated readOnlyHint: true are called/;

/**
 * How deep one server's audit went, read from its report: the listed tools it called (`stats.listedToolsCalled` of
 * `stats.toolsListed`) and the checks it skipped for want of a tool it may call; undefined when no check listed the
 * tools completely.
 * TODO(merge): a private stand-in for e-hidden's depthOf(report) of single audits; unify at merge.
 */
export function fleetDepth(report: RunReport, server: string): AuditDepth | undefined {
  if (report.stats.toolsListed === undefined) return undefined;
  const skipped = report.checks.filter((c) => c.status === 'skip' && NO_CALLABLE_TOOL.test(c.message)).length;
  const listed = report.stats.toolsListed;
  const called = report.stats.listedToolsCalled ?? 0;
  return {
    toolsListed: listed,
    toolsCalled: called,
    skippedForNoCallableTool: skipped,
    ...(skipped > 0 && called < listed ? { deeperWith: `--allow-tools ${server}:<tool>,… (or --allow-all-tools)` } : {}),
  };
}
