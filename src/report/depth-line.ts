import type { AuditDepth, DepthTimeouts } from '../model/depth.js';
import { SANDBOX_FLAG } from '../model/depth.js';

/**
 * How deep the audit went, in one line (the console's "Depth:"), e.g. "called 3 of 12 tools; 14 checks skipped for want
 * of a callable tool — --allow-tools x,y to go deeper".
 */
export function depthLine(depth: AuditDepth): string {
  const called =
    depth.toolsListed === 0
      ? 'the server lists no tools'
      : `called ${depth.toolsCalled} of ${depth.toolsListed} tool${depth.toolsListed === 1 ? '' : 's'}`;
  const n = depth.skippedForNoCallableTool;
  const skipped = n === 0 ? '' : `; ${n} check${n === 1 ? '' : 's'} skipped for want of a callable tool`;
  const why = depth.notReadOnly ? riskOf(depth.notReadOnly) : depth.deeperWith === SANDBOX_FLAG ? ' safely' : '';
  const deeper = depth.deeperWith === undefined ? '' : ` — ${depth.deeperWith} to go deeper${why}`;
  return (
    `${called}${skipped}${depth.sandboxed ? ' (sandboxed)' : ''}${deeper}` +
    `${depth.timeouts ? `; ${timeoutsLine(depth.timeouts)}` : ''}`
  );
}

/**
 * E.g. "3 calls timed out (get_a, get_b): 2 answered when retried alone; get_b timed out alone too — --timeout 20000
 * may help".
 */
function timeoutsLine(t: DepthTimeouts): string {
  const calls = `${t.calls} call${t.calls === 1 ? '' : 's'} timed out (${named(t.tools)})`;
  const retried = t.answeredAlone > 0 ? `: ${t.answeredAlone} answered when retried alone` : '';
  const still =
    t.stillTimedOut.length > 0 ? `${retried ? ';' : ':'} ${named(t.stillTimedOut)} timed out alone too` : '';
  return `${calls}${retried}${still}${t.helpWith ? ` — ${t.helpWith} may help` : ''}`;
}

function named(tools: readonly string[]): string {
  return (
    tools.slice(0, NAMED_AT_MOST).join(', ') +
    (tools.length > NAMED_AT_MOST ? ` and ${tools.length - NAMED_AT_MOST} more` : '')
  );
}

const NAMED_AT_MOST = 5;

/** The warning an --allow flag carries: the tools it would call that are not read-only, on the server's real data. */
function riskOf(tools: readonly string[]): string {
  const named =
    tools.slice(0, NAMED_AT_MOST).join(', ') +
    (tools.length > NAMED_AT_MOST ? ` and ${tools.length - NAMED_AT_MOST} more` : '');
  return (
    ` (careful: ${named} ${tools.length === 1 ? 'is' : 'are'} not annotated read-only and would run on the ` +
    `server's real data)`
  );
}
