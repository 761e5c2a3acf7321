import { Defects } from './active.js';
import { BASE_PROTOCOL_DEFECTS } from './base-protocol.js';
import { CACHING_DEFECTS } from './caching.js';
import { DIALECTS_DEFECTS } from './dialects.js';
import { DISCOVERY_DEFECTS } from './discovery.js';
import { HEADER_MISMATCH_DEFECTS } from './header-mismatch.js';
import { HTTP_DEFECTS } from './http.js';
import { INITIALIZE_HANDSHAKE_DEFECTS } from './initialize-handshake.js';
import { JSON_SCHEMA_DEFECTS } from './json-schema.js';
import { MRTR_DEFECTS } from './mrtr.js';
import { PAGE_CACHE_DEFECTS } from './page-cache.js';
import { PAGINATION_DEFECTS } from './pagination.js';
import { PROGRESS_DEFECTS } from './progress.js';
import { REQUEST_META_DEFECTS } from './request-meta.js';
import { RESULTS_DEFECTS } from './results.js';
import { TIMEOUTS_DEFECTS } from './timeouts.js';
import { TOOL_NAMES_DEFECTS } from './tool-names.js';
import { WIRE_DEFECTS } from './wire.js';
import { X_MCP_HEADER_DEFECTS } from './x-mcp-header.js';
import type { Defect } from './define.js';

export { Defects, NO_DEFECTS } from './active.js';
export type { Defect } from './define.js';

/** Every defect of the reference client: one module per file of suites/client/, beside the check it breaks. */
export const DEFECTS = {
  ...REQUEST_META_DEFECTS,
  ...WIRE_DEFECTS,
  ...HTTP_DEFECTS,
  ...X_MCP_HEADER_DEFECTS,
  ...MRTR_DEFECTS,
  ...PROGRESS_DEFECTS,
  ...JSON_SCHEMA_DEFECTS,
  ...DISCOVERY_DEFECTS,
  ...RESULTS_DEFECTS,
  ...CACHING_DEFECTS,
  ...PAGINATION_DEFECTS,
  ...BASE_PROTOCOL_DEFECTS,
  ...TOOL_NAMES_DEFECTS,
  ...DIALECTS_DEFECTS,
  ...TIMEOUTS_DEFECTS,
  ...PAGE_CACHE_DEFECTS,
  ...HEADER_MISMATCH_DEFECTS,
  ...INITIALIZE_HANDSHAKE_DEFECTS,
} as const satisfies Record<string, Defect>;

export type DefectName = keyof typeof DEFECTS;

export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name);
}

/** The client's defects by name, in table order (the order their hooks run in). */
export function activeDefects(names: Iterable<DefectName>): Defects {
  const wanted = new Set<string>(names);
  return new Defects(Object.entries(DEFECTS).flatMap(([name, defect]) => (wanted.has(name) ? [defect] : [])));
}
