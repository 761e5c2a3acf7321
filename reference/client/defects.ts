/** Each defect breaks exactly one client rule on purpose, so a client check can be shown to catch it alone. */
export interface Defect {
  /** The transport the defect exists on; it has no effect on the other. */
  only?: 'http' | 'stdio';
  /**
   * The client check of mcp-tools-conformance that catches it (test/client-defects.test.ts), per transport when the
   * rule has one per transport.
   */
  check: string | { http: string; stdio: string };
  description: string;
  /** It exists in the initialize mode (`--protocol-version`), on this revision: the client opens with initialize. */
  initializeRevision?: '2025-11-25';
}

export const DEFECTS = {
  'no-capabilities-on-pages': {
    check: 'tools.req.meta-required',
    description: 'tools/list requests after the first page omit io.modelcontextprotocol/clientCapabilities from _meta',
  },
  'no-client-info': { check: 'meta.req.clientinfo', description: 'never sends io.modelcontextprotocol/clientInfo' },
  'fractional-id': {
    check: 'base.req.id-type',
    description: 'the first tools/call uses the id 1.5 instead of an integer',
  },
  'reused-id-in-flight': {
    check: 'base.req.id-unique-inflight',
    description: 'sends the first two tools/call requests concurrently with the same id',
  },
  'notification-with-id': {
    check: 'base.notif.no-id',
    description: 'after listing, sends a notifications/cancelled message that carries an id',
  },
  'stdin-garbage': {
    check: 'stdio.client.stdin-clean',
    only: 'stdio',
    description: 'writes the line "hello server" to the stdin of the server before server/discover',
  },
  'invalid-utf8': {
    check: 'transport.utf8',
    description: 'sends server/discover with a raw 0xFF byte inside the clientInfo name',
  },
  'json-batch': {
    check: 'http.client.single-message',
    only: 'http',
    description: 'sends server/discover as a JSON array [request]',
  },
  'sends-response': {
    check: { http: 'http.client.no-responses', stdio: 'stdio.client.no-responses' },
    description: 'after listing, sends a JSON-RPC response message with id "reference-client-stray"',
  },
  'no-sse-support': {
    check: 'http.client.both-content-types',
    only: 'http',
    description: 'an answer sent as text/event-stream is taken as a failure (only application/json is read)',
  },
  'accept-json-only': { check: 'http.client.accept', only: 'http', description: 'sends Accept: application/json only' },
  'no-protocol-version-header': {
    check: 'http.pv.header',
    only: 'http',
    description: 'omits MCP-Protocol-Version on tools/list requests',
  },
  'protocol-version-header-mismatch': {
    check: 'http.pv.match',
    only: 'http',
    description: 'sends MCP-Protocol-Version: 2025-11-25 on tools/call (the body says 2026-07-28)',
  },
  'no-mcp-method-header': {
    check: 'http.std.required',
    only: 'http',
    description: 'omits Mcp-Method on tools/list requests',
  },
  'x-mcp-header-ignored': {
    check: 'xmcp.client.mirror',
    only: 'http',
    description: 'never sends Mcp-Param-* headers (annotations are still validated)',
  },
  'null-param-header': {
    check: 'xmcp.client.omit-null',
    only: 'http',
    description: 'sends Mcp-Param-* with the value "null" for a null argument instead of omitting it',
  },
  'percent-encoded-params': {
    check: 'enc.client.base64',
    only: 'http',
    description: 'Mcp-Param-* values that need Base64 are percent-encoded instead',
  },
  'sentinel-not-encoded': {
    check: 'enc.client.sentinel-collision',
    only: 'http',
    description: 'plain-ASCII Mcp-Param-* values that look like the Base64 sentinel are sent as-is',
  },
  'boolean-capitalised': {
    check: 'enc.type-conversion',
    only: 'http',
    description: 'boolean Mcp-Param-* values are sent as True/False',
  },
  'keeps-invalid-x-mcp-header-tools': {
    check: 'xmcp.client.exclude',
    only: 'http',
    description: 'keeps (lists and calls) tools whose x-mcp-header annotations are invalid',
  },
  'retry-same-id': {
    check: 'tools.call.retry-new-id',
    description: 'an MRTR retry reuses the id of the request it retries',
  },
  'requeststate-truncated': {
    check: 'mrtr.client.echo-requeststate',
    description: 'the echoed requestState loses its last character',
  },
  'spurious-requeststate': {
    check: 'mrtr.client.no-spurious-requeststate',
    description: 'an MRTR retry after a result without requestState carries the previous one (or "state")',
  },
  'missing-input-response': {
    check: 'mrtr.client.fulfill-before-retry',
    description: 'an MRTR retry answers only the first key of inputRequests',
  },
  'retry-changes-arguments': {
    check: 'mrtr.client.retry-original',
    description: 'an MRTR retry sends arguments: {} instead of the original ones',
  },
  'cross-uses-requeststate': {
    check: 'mrtr.client.no-cross-use',
    description:
      "the first call of each tool carries the last requestState another tool's input_required result issued",
  },
  'discover-with-put': {
    only: 'http',
    check: 'http.client.post',
    description: 'sends server/discover with HTTP PUT instead of POST',
  },
  'mcp-name-percent-encoded': {
    only: 'http',
    check: 'http.std.mcp-name-base64',
    description: 'a tool name that needs Base64 goes into Mcp-Name percent-encoded instead',
  },
  'fractional-progress-token': {
    check: 'progress.token-type',
    description: 'the first tools/call carries progressToken 1.5',
  },
  'reused-progress-token': {
    check: 'progress.token-unique',
    description: 'sends the first two tools/call requests concurrently with the same progressToken',
  },
  'permissive-unresolved-ref': {
    check: 'jsonschema.ref.unresolved-reject',
    description: 'an outputSchema with an unresolved $ref is treated as accepting anything',
  },
  'no-discover': {
    check: 'version.matrix.stdio-discover-first',
    description: 'sends no server/discover: the first request is tools/list',
  },
  'stderr-is-error': {
    only: 'stdio',
    check: 'stdio.client.stderr-not-error',
    description: 'anything the server writes to stderr fails the requests in flight',
  },
  'resumes-cut-stream': {
    only: 'http',
    check: 'http.sse.no-resume',
    description:
      'an SSE answer that ends before its response, after events with ids, is resumed with GET and ' +
      'Last-Event-ID (as 2025-11-25 allowed)',
  },
  'legacy-code-as-header-mismatch': {
    check: 'err.legacy.no-meaning',
    description:
      'an error -32001 (HeaderMismatch before the renumbering) makes it re-list the tools and retry the call',
  },
  'caches-stale-listing': {
    check: 'cache.client.ttl-zero',
    description:
      'keeps its first listing for the whole run: opens no listen stream, and serves the second listing from ' +
      'its cache although every page had ttlMs 0',
  },
  'ignores-list-changed': {
    check: 'cache.notif.invalidates',
    description: 'notifications/tools/list_changed on its listen stream does not make its fresh listing stale',
  },
  'cursor-trimmed': {
    check: 'page.client.opaque',
    description: 'the tools/list cursor sent back is trimmed of surrounding whitespace',
  },
  'empty-cursor-ends': {
    check: 'page.client.empty-cursor',
    description: 'nextCursor: "" is taken as the end of the list',
  },
  'first-page-only': {
    check: 'page.client.both-flows',
    description: 'lists only the first page of tools/list: a nextCursor is never followed',
  },
  'fetches-network-ref': {
    check: 'jsonschema.ref.no-network',
    description: "before calling tools, GETs every http(s) $ref found in the listed tools' schemas",
  },
  'accepts-unknown-resulttype': {
    check: 'base.resulttype.unknown-invalid',
    description: 'a tools/call result with an unknown resultType is printed as a result',
  },
  'no-output-validation': {
    check: 'tools.output.client-validate',
    description:
      'structuredContent is not validated against outputSchema (a schema that does not compile is still an error)',
  },
  'no-jsonrpc-member': { check: 'base.jsonrpc', description: 'tools/list requests omit the "jsonrpc": "2.0" member' },
  'bad-meta-key': {
    check: 'meta.client.key-format',
    description: 'every request carries the _meta key "x_vendor/trace" (a prefix label with an underscore)',
  },
  'bad-traceparent': {
    check: 'meta.otel.format',
    description: 'every request carries _meta traceparent "trace-1" (not W3C Trace Context)',
  },
  'discover-with-params': {
    check: 'discover.no-params',
    description: 'server/discover carries params.protocolVersion besides _meta',
  },
  'tool-names-case-folded': {
    check: 'tools.name.case-sensitive',
    description: 'tools whose names differ only in case are taken for one: only the first is kept',
  },
  'draft-07-by-default': {
    check: 'jsonschema.impl.validate-by-dialect',
    description: 'an outputSchema without $schema is validated as draft-07 (which ignores prefixItems)',
  },
  'unknown-dialect-as-2020-12': {
    check: 'jsonschema.impl.unsupported-dialect',
    description: 'an outputSchema whose $schema names an unknown dialect is validated as 2020-12',
  },
  'no-call-timeout': {
    check: 'tools.sec.client-timeouts',
    description: 'ignores the call timeout of the driver contract: waits up to 10 s for every answer',
  },
  'timeout-without-cancel': {
    check: 'cancel.timeout-cancel',
    only: 'stdio',
    description: 'a request that times out is given up without notifications/cancelled',
  },
  'cancels-unknown-request': {
    check: 'cancel.ref-valid',
    description: 'after listing, sends notifications/cancelled for the request id "reference-client-never-issued"',
  },
  'caches-later-pages': {
    check: 'cache.page.refetch-page',
    description:
      'opens no listen stream, and keeps the pages after the first from the first listing: the second listing ' +
      'fetches only the first page again, although every page had ttlMs 0',
  },
  'no-header-mismatch-refresh': {
    check: 'xmcp.client.mismatch-refresh',
    only: 'http',
    description: 'a HeaderMismatch error (-32020) ends the call: no new listing, no retry',
  },
  'falls-back-on-400': {
    check: 'http.compat.inspect-400',
    only: 'http',
    description:
      'a 400 answer makes it send initialize (2025-11-25) before going on, although the body is a modern error ' +
      '(-32020)',
  },
  'lists-before-initialize': {
    initializeRevision: '2025-11-25',
    check: 'lifecycle.client.initialize-first',
    description: 'sends tools/list before initialize',
  },
  'no-initialized': {
    initializeRevision: '2025-11-25',
    check: 'lifecycle.client.initialized',
    description: 'sends no notifications/initialized after initialize',
  },
  'drops-session-id': {
    initializeRevision: '2025-11-25',
    only: 'http',
    check: 'http.session.echo',
    description: 'sends tools/call without the Mcp-Session-Id of its session',
  },
  'no-new-session-after-404': {
    initializeRevision: '2025-11-25',
    only: 'http',
    check: 'http.session.new-after-404',
    description: 'after a 404 on its session, sends the request again in the ended session instead of a new initialize',
  },
  'no-protocol-version-after-initialize': {
    initializeRevision: '2025-11-25',
    only: 'http',
    check: 'http.pv.after-initialize',
    description: 'sends no MCP-Protocol-Version header after initialize',
  },
  'answers-with-wrong-id': {
    initializeRevision: '2025-11-25',
    check: 'base.response.same-id',
    description: "answers the server's first request with another id than the request's",
  },
  'cancels-server-request': {
    initializeRevision: '2025-11-25',
    check: 'cancel.client.own-requests',
    description: "sends notifications/cancelled for the server's first request (one the client did not issue)",
  },
  'id-never-reused-initialize-id': {
    initializeRevision: '2025-11-25',
    check: 'base.req.id-never-reused',
    description: 'the first tools/list reuses the id of initialize (1), answered by then',
  },
  'legacy-json-batch': {
    initializeRevision: '2025-11-25',
    check: 'jsonrpc.client.no-batch',
    description: 'sends notifications/initialized as a JSON-RPC batch of one',
  },
} as const satisfies Record<string, Defect>;

export type DefectName = keyof typeof DEFECTS;

export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name);
}

export type Defects = ReadonlySet<DefectName>;
