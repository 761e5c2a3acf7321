import type { AuditDepth } from '../model/depth.js';
import { SANDBOX_FLAG } from '../model/depth.js';

/** How deep the audit went, in one line (the console's "Depth:"), e.g. "called 3 of 12 tools; 14 checks skipped for want of a callable tool — --allow-tools x,y to go deeper". */
export function depthLine(depth: AuditDepth): string {
  const called = depth.toolsListed === 0 ? 'the server lists no tools' : `called ${depth.toolsCalled} of ${depth.toolsListed} tool${depth.toolsListed === 1 ? '' : 's'}`;
  const n = depth.skippedForNoCallableTool;
  const skipped = n === 0 ? '' : `; ${n} check${n === 1 ? '' : 's'} skipped for want of a callable tool`;
  const why = depth.notReadOnly ? riskOf(depth.notReadOnly) : depth.deeperWith === SANDBOX_FLAG ? ' safely' : '';
  const deeper = depth.deeperWith === undefined ? '' : ` — ${depth.deeperWith} to go deeper${why}`;
  return `${called}${skipped}${depth.sandboxed ? ' (sandboxed)' : ''}${deeper}`;
}

const NAMED_AT_MOST = 5;

/** The warning an --allow flag carries: the tools it would call that are not read-only, on the server's real data. */
function riskOf(tools: readonly string[]): string {
  const named = tools.slice(0, NAMED_AT_MOST).join(', ') + (tools.length > NAMED_AT_MOST ? ` and ${tools.length - NAMED_AT_MOST} more` : '');
  return ` (careful: ${named} ${tools.length === 1 ? 'is' : 'are'} not annotated read-only and would run on the server's real data)`;
}
