import { CLIENT_CHECKS } from '../../suites/client/index.js';
import type { ClientSide } from './conformance-md.js';

/**
 * Client mode's part of CONFORMANCE.md: the client checks and the reference-client defects that prove them, which the
 * entry point hands in (reference/defect-tables.ts: the auditor does not import the reference programs).
 */
export function clientSide(defects: ClientSide['defects']): ClientSide {
  return { checks: CLIENT_CHECKS, defects };
}
