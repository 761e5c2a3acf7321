import { DEFECTS as CLIENT_DEFECTS, type Defect } from './client/defects/index.js';
import { DEFECTS as SERVER_DEFECTS } from './server/defects/index.js';

// The reference programs' defect tables as data, for CONFORMANCE.md: which check each defect proves able to fail. The
// auditor never imports this (scripts/check-boundaries.mjs); the generator's entry point, scripts/conformance-md.mjs,
// reads it from the build and hands it to renderConformance (src/catalog/conformance-md.ts), as the tests do.

/** Each reference-server defect and the check it breaks (null: chaos behaviours and conforming variants). */
export const SERVER_DEFECT_REFS: readonly { name: string; breaks: string | null }[] = SERVER_DEFECTS.map(
  ({ name, breaks }) => ({ name, breaks }),
);

/**
 * Each reference-client defect and the client checks that catch it (one per transport when the rule has one per
 * transport).
 */
export const CLIENT_DEFECT_REFS: readonly { name: string; checks: readonly string[] }[] = Object.entries(
  CLIENT_DEFECTS as Record<string, Defect>,
).map(([name, d]) => ({
  name,
  checks: typeof d.check === 'string' ? [d.check] : Object.values(d.check),
}));
