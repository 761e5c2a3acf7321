import { forgetRegExpOverruns } from '../schema/arguments/regexp-sandbox.js';
import { restartSeq } from '../transport/sequence.js';

/**
 * Clears what one audit leaves in the process that could show in another's report (a fleet runs a lane's audits in
 * one process, audit-worker-protocol.ts): the evidence numbering, and the patterns known to overrun their deadline. The
 * other module-level caches are keyed by content (a schema's JSON text, a wire) and give the same answer in any audit.
 */
export function resetBetweenAudits(): void {
  restartSeq();
  forgetRegExpOverruns();
}
