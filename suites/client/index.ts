import { AREAS, assertUniqueIds, type ClientCheckDefinition } from '../kit/index.js';
import { BASE_PROTOCOL_CHECKS } from './base-protocol.js';
import { CACHING_CHECKS } from './caching.js';
import { DIALECT_CHECKS } from './dialects.js';
import { DISCOVERY_CHECKS } from './discovery.js';
import { HEADER_MISMATCH_CHECKS } from './header-mismatch.js';
import { HTTP_CHECKS } from './http.js';
import { JSON_SCHEMA_CHECKS } from './json-schema.js';
import { INITIALIZE_CHECKS } from './initialize-handshake.js';
import { MRTR_CHECKS } from './mrtr.js';
import { PAGE_CACHE_CHECKS } from './page-cache.js';
import { PAGINATION_CHECKS } from './pagination.js';
import { PROGRESS_CHECKS } from './progress.js';
import { REQUEST_META_CHECKS } from './request-meta.js';
import { RESULT_CHECKS } from './results.js';
import { TIMEOUT_CHECKS } from './timeouts.js';
import { TOOL_NAME_CHECKS } from './tool-names.js';
import { WIRE_CHECKS } from './wire.js';
import { X_MCP_HEADER_CHECKS } from './x-mcp-header.js';

/** Every client check, in the order reports show them (areas in AREAS order). */
export const CLIENT_CHECKS: readonly ClientCheckDefinition[] = [
  ...DISCOVERY_CHECKS,
  ...REQUEST_META_CHECKS,
  ...WIRE_CHECKS,
  ...HTTP_CHECKS,
  ...X_MCP_HEADER_CHECKS,
  ...MRTR_CHECKS,
  ...PROGRESS_CHECKS,
  ...PAGINATION_CHECKS,
  ...CACHING_CHECKS,
  ...JSON_SCHEMA_CHECKS,
  ...RESULT_CHECKS,
  ...BASE_PROTOCOL_CHECKS,
  ...TOOL_NAME_CHECKS,
  ...DIALECT_CHECKS,
  ...TIMEOUT_CHECKS,
  ...PAGE_CACHE_CHECKS,
  ...HEADER_MISMATCH_CHECKS,
  ...INITIALIZE_CHECKS,
].sort((a, b) => AREAS.indexOf(a.area) - AREAS.indexOf(b.area));

assertUniqueIds(CLIENT_CHECKS);
