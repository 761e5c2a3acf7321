// The one import surface of a check (ARCHITECTURE.md; scripts/check-boundaries.mjs keeps it so): everything a file
// of suites/ uses of the engine and below — the check's context and definition, outcomes and sentences, error codes,
// the revisions, the model's types, and the services' helpers checks judge with — is re-exported here, and the files
// of suites/ outside suites/kit/ import nothing outside suites/. A check that needs something new adds it here.
// The helpers of suites/kit/ itself are imported from their own files.

export { CALL_TIMEOUT_MS } from '../../src/client-mode/driver-contract.js';
export {
  CONTROL_ERROR_CODE,
  CUT_STREAM_EVENT_IDS,
  INVALID_HEADER_TOOLS,
  FORMER_HEADER_MISMATCH_CODE,
  STDERR_LOG_LINE,
  TOOL,
  UNKNOWN_DIALECT,
  UNKNOWN_RESULT_TYPE,
} from '../../src/client-mode/scenarios.js';
export { SLOW_ANSWER_MS, SLOW_PROGRESS_EVERY_MS } from '../../src/client-mode/slow-answer.js';
export { LISTEN_TTL_MS } from '../../src/client-mode/tool-set-change.js';
export { canonicalJson } from '../../src/core/canonical-json.js';
export { errorOf, isObject, resultOf } from '../../src/core/jsonrpc.js';
export type { JsonRpcId } from '../../src/core/jsonrpc.js';
export {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
} from '../../src/core/meta-keys.js';
export { valueAtPath } from '../../src/core/value-at-path.js';
export {
  compareRevisions,
  INITIALIZE_REVISIONS,
  isInitializeRevision,
  LATEST_INITIALIZE_REVISION,
  LATEST_REVISION,
  REVISIONS,
} from '../../src/core/revision.js';
export type { Revision } from '../../src/core/revision.js';
export type { Evidence, KeywordText, Outcome, SpecSentence, SpecSentences } from '../../src/model/check.js';
export type { SeenMessage } from '../../src/model/client-observation.js';
export { effectPlace } from '../../src/model/effects.js';
export type { EffectsLog, FileEffect, RecordedCall } from '../../src/model/effects.js';
export type { Exchange, StrayEvent } from '../../src/model/exchange.js';
export {
  DEFAULT_PROPERTY_OPTIONS,
  DEFAULT_RUNS,
  derivedSeed,
  formatReplayToken,
  invalidCases,
  Limiter,
  prepareSource,
  search,
  shellQuote,
  SLOW_SEARCH,
  ValidArguments,
} from '../../src/property/index.js';
export type {
  Arguments,
  ArgumentSource,
  InvalidCase,
  PropertyOptions,
  PropertySpec,
  SearchResult,
  SlowStop,
} from '../../src/property/index.js';
export type { McpClient } from '../../src/protocol/client.js';
export { ERR, LOG_LEVELS, STATELESS_ERROR_CODES, NAME_HEADER_SOURCE } from '../../src/protocol/constants.js';
export { TargetGoneError } from '../../src/protocol/errors.js';
export { extensionIdIssues, metaKeyIssues } from '../../src/protocol/meta-key.js';
export type { MetaKeyIssue, MetaKeyRule } from '../../src/protocol/meta-key.js';
export { CLIENT_CAPABILITY_OF, INITIALIZE_CLIENT_CAPABILITIES } from '../../src/protocol/server-requests.js';
export { walkTools } from '../../src/protocol/tool-walk.js';
export type { ToolWalk } from '../../src/protocol/tool-walk.js';
export { CATCH_ALL_CHECK } from '../../src/runner/attribution.js';
export { CANCEL_WATCH_MS, readMarkerMethod } from '../../src/runner/cancellation.js';
export type { SentCancellation } from '../../src/runner/cancellation.js';
export { evidenceOf } from '../../src/client-mode/audit/check.js';
export type { ClientCheckContext, ClientCheckDefinition, SeenRequest } from '../../src/client-mode/audit/check.js';
export type { CheckContext } from '../../src/runner/context.js';
export { assertUniqueIds } from '../../src/runner/registry.js';
export { describeIssues, methodOf } from '../../src/runner/result-schemas.js';
export type { AttributedIssue } from '../../src/runner/result-schemas.js';
export { AREAS, pending } from '../../src/runner/types.js';
export type { CheckDefinition, Pending } from '../../src/runner/types.js';
export {
  compileArgumentSchema,
  describeFormatDependence,
  invalidArguments,
  isUndecided,
  pickInvalidArguments,
  sampleArguments,
  undeclaredDialectOn,
} from '../../src/schema/arguments/index.js';
export type {
  ArgumentVerdict,
  DialectReading,
  FormatDependence,
  InvalidArguments,
  LenientReading,
  UndeclaredDialect,
} from '../../src/schema/arguments/index.js';
export {
  analyzeRefs,
  dialectOf,
  ecmaRegExpProblem,
  ENUM_SHOULD_TEXT,
  enumAdvice,
  findPatterns,
  namesDefaultDialect,
  SUPPORTED_DIALECTS,
  validateSchemaDocument,
} from '../../src/schema/tool-schema/index.js';
export type { EnumAdvice, MetaVerdict, RefInfo } from '../../src/schema/tool-schema/index.js';
export { parsePointer } from '../../src/schema/tool-schema/json-pointer.js';
export { shorten } from '../../src/schema/tool-schema/shorten.js';
export { validateWire } from '../../src/schema/validator.js';
export { annotatedType, checkHeaderAnnotations, findHeaderAnnotations } from '../../src/schema/xmcp/index.js';
export type { HeaderAnnotation, XmcpFinding, XmcpRule } from '../../src/schema/xmcp/index.js';
export { decodeHeaderValue, encodeHeaderValue, isPlainHeaderSafe } from '../../src/transport/header-encoding.js';
export { lateAnswer } from '../../src/transport/late-answers.js';
export { findHeaderAnnotations as mirroredHeaderAnnotations } from '../../src/transport/param-headers.js';
export { TargetUnavailableError } from '../../src/transport/types.js';
export type { ListenStream } from '../../src/transport/types.js';
