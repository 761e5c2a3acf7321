import { DEFECTS as CLIENT_DEFECTS, type Defect } from '../reference-client/defects.js';
import { CLIENT_CHECKS } from '../../suites/client/index.js';
import type { ClientSide } from './conformance-md.js';

/** Client mode's part of CONFORMANCE.md: the client checks and the reference-client defects that prove them. */
export const CLIENT_SIDE: ClientSide = {
  checks: CLIENT_CHECKS,
  defects: Object.entries(CLIENT_DEFECTS as Record<string, Defect>).map(([name, d]) => ({ name, checks: typeof d.check === 'string' ? [d.check] : Object.values(d.check) })),
};
