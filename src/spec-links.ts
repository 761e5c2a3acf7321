import { MODERN_VERSION, type Wire } from './model/wire.js';

const SITE = 'https://modelcontextprotocol.io/specification/';

/** The revision a link points into: the wire the audit used, or the current revision when none was negotiated. */
export function specRevision(wire: Wire | null | undefined): Wire {
  return wire ?? MODERN_VERSION;
}

/**
 * The published page for a spec reference of one revision: a page and anchor (`server/tools#capabilities`), or a
 * schema.json pointer (`schema.json#/$defs/Tool/required`, `schema.json#/definitions/Tool/required` before 2025-11-25), which
 * the site shows on its schema reference page.
 */
export function specUrl(specRef: string, wire: Wire | null | undefined): string {
  const base = `${SITE}${specRevision(wire)}/`;
  // The schema.json of 2025-06-18 and before keeps its types under definitions, later ones under $defs.
  const schema = /^schema\.json#\/(?:\$defs|definitions)\/([^/]+)/.exec(specRef);
  if (schema) return `${base}schema#${schema[1]!.toLowerCase()}`;
  return base + specRef;
}
