import type { AuditDepth } from '../model/depth.js';

/** How deep the audit went, in one line (the console's "Depth:"), e.g. "called 3 of 12 tools; 14 checks skipped for want of a callable tool — --allow-tools x,y to go deeper". */
export function depthLine(depth: AuditDepth): string {
  const called = depth.toolsListed === 0 ? 'the server lists no tools' : `called ${depth.toolsCalled} of ${depth.toolsListed} tool${depth.toolsListed === 1 ? '' : 's'}`;
  const n = depth.skippedForNoCallableTool;
  const skipped = n === 0 ? '' : `; ${n} check${n === 1 ? '' : 's'} skipped for want of a callable tool`;
  const deeper = depth.deeperWith === undefined ? '' : ` — ${depth.deeperWith} to go deeper`;
  return `${called}${skipped}${deeper}`;
}
