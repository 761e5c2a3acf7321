import { SANDBOX_FLAG, type AuditDepth, type DepthTimeouts } from '../model/depth.js';
import type { RunReport } from '../model/report.js';

/** Names --allow-tools can carry (comma-separated): the characters of a tool name the spec recommends. */
const FLAG_SAFE_NAME = /^[A-Za-z0-9_.-]+$/;
/** Longer lists are not worth typing: --allow-all-tools says the same. */
const MAX_ALLOW_TOOLS_CHARS = 120;

/**
 * The flag that would let the audit call more tools: `--allow-tools a,b` naming the listed tools the safety options
 * kept from being called, or `--allow-all-tools` when that list is long or holds a name the flag cannot carry.
 * Undefined when no listed tool was refused (the tools left out with --skip-tools are the user's choice).
 */
export function deeperWith(notAllowed: readonly string[]): string | undefined {
  if (notAllowed.length === 0) return undefined;
  const list = notAllowed.join(',');
  return notAllowed.every((name) => FLAG_SAFE_NAME.test(name)) && list.length <= MAX_ALLOW_TOOLS_CHARS
    ? `--allow-tools ${list}`
    : '--allow-all-tools';
}

/**
 * How deep an audit went, from its report: the listed tools it called (a probe of an unlisted name is not one), the
 * checks skipped for want of a callable tool (`skippedFor`), and the flag that would go deeper. A report without its
 * listing (snapshot, client mode, a target lost before listing) counts no tools.
 */
export function depthOf(report: RunReport, platform: NodeJS.Platform = process.platform): AuditDepth {
  const listed = report.stats.toolsListed ?? [];
  const called = listed.filter((name) => (report.stats.toolsCalled[name] ?? 0) > 0);
  const skipped = new Set(report.checks.filter((c) => c.skippedFor === 'no-callable-tool').map((c) => c.id));
  const notCalled = (report.stats.toolsNotAllowed ?? []).filter((name) => (report.stats.toolsCalled[name] ?? 0) === 0);
  const sandboxed = report.sandbox !== undefined;
  // A server we start can be sandboxed on Linux: that is the way deeper that changes none of the user's data.
  const safely = report.target?.transport === 'stdio' && platform === 'linux' && notCalled.length > 0;
  const flag = safely ? SANDBOX_FLAG : deeperWith(notCalled);
  const timeouts = timeoutsOf(report);
  return {
    toolsListed: listed.length,
    toolsCalled: called.length,
    skippedForNoCallableTool: skipped.size,
    ...(flag === undefined ? {} : { deeperWith: flag }),
    ...(flag !== undefined && !safely ? { notReadOnly: notCalled } : {}),
    ...(sandboxed ? { sandboxed: true as const } : {}),
    ...(timeouts ? { timeouts } : {}),
  };
}

const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** The calls that timed out, from the report's stats; undefined when none did. */
function timeoutsOf(report: RunReport): DepthTimeouts | undefined {
  const t = report.stats.timeouts;
  if (!t) return undefined;
  const calls = total(t.amongOthers) + total(t.alone);
  if (calls === 0) return undefined;
  const stillTimedOut = Object.keys(t.alone).sort();
  const longer = report.options?.timeoutMs === undefined ? '--timeout' : `--timeout ${report.options.timeoutMs * 2}`;
  const skip = deeperWith(stillTimedOut)?.startsWith('--allow-tools ')
    ? ` or --skip-tools ${stillTimedOut.join(',')}`
    : '';
  return {
    calls,
    tools: [...new Set([...Object.keys(t.amongOthers), ...Object.keys(t.alone)])].sort(),
    answeredAlone: total(t.answeredAlone),
    stillTimedOut,
    ...(stillTimedOut.length > 0 ? { helpWith: `${longer}${skip}` } : {}),
  };
}
