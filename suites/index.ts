import { assertUniqueIds, type CheckDefinition } from './kit/index.js';
import { CACHING_CHECKS } from './caching/caching.js';
import { CANCELLATION_CHECKS } from './notifications/cancellation.js';
import { CAPABILITY_CHECKS } from './discovery/capabilities.js';
import { DISCOVER_CHECKS } from './discovery/discover.js';
import { VERSION_NEGOTIATION_CHECKS } from './discovery/version-negotiation.js';
import { requestResponseContentType } from './http/http-content-type.js';
import { HTTP_CHECKS } from './http/http-headers.js';
import { sessionIdVisibleAscii } from './http/session-id.js';
import { HTTP_STREAM_CHECKS } from './http/http-streams.js';
import { GET_STREAM_CHECKS } from './http/get-stream.js';
import { ACCEPTED_202_CHECKS } from './http/accepted-202.js';
import { ENDED_SESSION_CHECKS } from './http/ended-session-404.js';
import { JSON_SCHEMA_CHECKS } from './definitions/json-schema.js';
import { LIVE_LISTING_CHECKS } from './listing/live-listing.js';
import { META_KEY_CHECKS, extensionIds } from './request-meta/meta-keys.js';
import { traceContextFormat } from './request-meta/trace-context.js';
import { LOGGING_CHECKS } from './notifications/logging.js';
import { MRTR_CHECKS } from './mrtr/mrtr.js';
import { MRTR_RESPONSE_CHECKS } from './mrtr/mrtr-responses.js';
import { MRTR_STATE_CHECKS } from './mrtr/mrtr-state.js';
import { ORIGIN_CHECKS } from './http/origin.js';
import { PARAM_HEADER_CHECKS } from './http/param-headers.js';
import { PROGRESS_CHECKS } from './notifications/progress.js';
import { PROPERTY_CHECKS } from './property/property.js';
import { REQUEST_META_CHECKS } from './request-meta/request-meta.js';
import { STATELESSNESS_CHECKS } from './mrtr/statelessness.js';
import { RESULT_CHECKS } from './results/results.js';
import { SUBSCRIPTION_CHECKS } from './subscriptions/subscriptions.js';
import { BATCH_CHECKS } from './wire/batches.js';
import { ID_NEVER_REUSED_CHECKS } from './wire/id-never-reused.js';
import { pingAnswered } from './wire/ping.js';
import { exitOnStdinEof } from './wire/stdio-shutdown.js';
import { TOOL_CALL_CHECKS } from './tool-calls/tool-calls.js';
import { TOOL_NAME_CHECKS } from './definitions/tool-names.js';
import { TOOL_RESULT_CHECKS } from './tool-calls/tool-results.js';
import { embeddedImpliesResources } from './tool-calls/embedded-resources.js';
import { ICON_CHECKS, TOOL_SHAPE_CHECKS } from './definitions/tool-shape.js';
import { ANNOTATION_HONESTY_CHECKS } from './effects/annotation-honesty.js';
import { TOOLS_LIST_CHECKS } from './listing/tools-list.js';
import { WIRE_CHECKS } from './wire/wire.js';
import { X_MCP_HEADER_CHECKS } from './definitions/x-mcp-header.js';

/** Every check, in report order: one list per area, areas in the order a reader meets them. */
export const ALL_CHECKS: readonly CheckDefinition[] = [
  ...DISCOVER_CHECKS,
  ...VERSION_NEGOTIATION_CHECKS,
  ...CAPABILITY_CHECKS,
  extensionIds,
  ...TOOLS_LIST_CHECKS,
  ...LIVE_LISTING_CHECKS,
  ...TOOL_NAME_CHECKS,
  ...TOOL_SHAPE_CHECKS,
  ...ANNOTATION_HONESTY_CHECKS,
  ...ICON_CHECKS,
  ...JSON_SCHEMA_CHECKS,
  ...X_MCP_HEADER_CHECKS,
  ...CACHING_CHECKS,
  ...RESULT_CHECKS,
  ...REQUEST_META_CHECKS,
  ...META_KEY_CHECKS,
  traceContextFormat,
  ...TOOL_CALL_CHECKS,
  ...TOOL_RESULT_CHECKS,
  embeddedImpliesResources,
  ...MRTR_CHECKS,
  ...MRTR_STATE_CHECKS,
  ...MRTR_RESPONSE_CHECKS,
  ...STATELESSNESS_CHECKS,
  ...PROGRESS_CHECKS,
  ...LOGGING_CHECKS,
  ...CANCELLATION_CHECKS,
  ...SUBSCRIPTION_CHECKS,
  ...HTTP_CHECKS,
  sessionIdVisibleAscii,
  ...ORIGIN_CHECKS,
  requestResponseContentType,
  ...PARAM_HEADER_CHECKS,
  ...HTTP_STREAM_CHECKS,
  ...GET_STREAM_CHECKS,
  ...ACCEPTED_202_CHECKS,
  ...ENDED_SESSION_CHECKS,
  ...PROPERTY_CHECKS,
  ...WIRE_CHECKS,
  ...BATCH_CHECKS,
  pingAnswered,
  ...ID_NEVER_REUSED_CHECKS,
  exitOnStdinEof,
];

assertUniqueIds(ALL_CHECKS);
