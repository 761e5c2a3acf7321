import { compareRevisions, LATEST_REVISION, type Revision } from './core/revision.js';

const SITE = 'https://modelcontextprotocol.io/specification/';
/** Where basic/index of 2024-11-05 and 2025-03-26 points for its JSON Schema: the site has no schema page for them. */
const SCHEMA_FILES = 'https://github.com/modelcontextprotocol/specification/blob/main/schema/';
const FIRST_SCHEMA_PAGE: Revision = '2025-06-18';

/** The revision a link points into: the wire the audit used, or the current revision when none was negotiated. */
export function specRevision(wire: Revision | null | undefined): Revision {
  return wire ?? LATEST_REVISION;
}

/**
 * The published page for a spec reference of one revision: a page and anchor (`server/tools#capabilities`), or a
 * schema.json pointer (`schema.json#/$defs/Tool/required`; `#/definitions/…` in the draft-07 files before 2025-11-25),
 * which the site shows on its schema reference page from 2025-06-18 on; before, the link is the schema.json file.
 */
export function specUrl(specRef: string, wire: Revision | null | undefined): string {
  const revision = specRevision(wire);
  const base = `${SITE}${revision}/`;
  const schema = /^schema\.json#\/(?:\$defs|definitions)\/([^/]+)/.exec(specRef);
  if (!schema) return base + specRef;
  return compareRevisions(revision, FIRST_SCHEMA_PAGE) >= 0
    ? `${base}schema#${schema[1]!.toLowerCase()}`
    : `${SCHEMA_FILES}${revision}/schema.json`;
}
