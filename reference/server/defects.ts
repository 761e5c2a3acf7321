import { isInitializeRevision, type InitializeRevision, type Revision } from './revisions.js';

export interface DefectDefinition {
  name: string;
  /** ID of the check that must catch this defect; null for chaos behaviours and conforming variants. */
  breaks: string | null;
  description: string;
  /** Transports the defect exists on; absent means both. */
  transports?: ('stdio' | 'http')[];
  /** A misbehaviour for bad-target tests rather than a single broken requirement. */
  chaos?: boolean;
  /** Not a defect: a conforming behaviour some check once misjudged (its test shows that it no longer does). */
  conforming?: boolean;
  /** Audit flags the defect needs in order to show (e.g. the tool that changes the tool set). */
  auditArgs?: readonly string[];
  /**
   * The initialize revision whose rule the defect breaks: the server takes it only when started as that revision or a
   * newer initialize one (--protocol-version), and the defect tests start it as this one.
   */
  revision?: InitializeRevision;
}

/** How an audit changes the reference server's tool set: toggle_beta_tools adds or removes beta_forecast. */
export const LIST_CHANGED_TRIGGER_ARGS: readonly string[] = ['--list-changed-trigger', 'toggle_beta_tools'];

interface NamedDefect<Name extends string> extends DefectDefinition {
  name: Name;
}

function defineDefects<const Name extends string>(list: readonly NamedDefect<Name>[]): readonly NamedDefect<Name>[] {
  return list;
}

export const DEFECTS = defineDefects([
  { name: 'no-discover', breaks: 'discover.must-implement', description: 'server/discover answers -32601 (HTTP 404)' },
  {
    name: 'supported-versions-missing',
    breaks: 'schema.result.valid',
    description: 'DiscoverResult without supportedVersions',
  },
  {
    name: 'supported-versions-omits-served',
    breaks: 'discover.supported-versions',
    description: 'DiscoverResult.supportedVersions is ["2025-11-25"] although the server serves 2026-07-28',
  },
  {
    name: 'no-server-info',
    breaks: 'discover.serverinfo',
    description: 'DiscoverResult without _meta serverInfo (other results keep it)',
  },
  {
    name: 'no-server-info-on-list',
    breaks: 'meta.res.serverinfo',
    description: 'tools/list results without _meta serverInfo (discover keeps it)',
  },
  {
    name: 'no-tools-capability',
    breaks: 'tools.cap.declare',
    description: 'discover capabilities is {} while tools/list still works',
  },
  {
    name: 'list-changed-not-boolean',
    breaks: 'tools.cap.list-changed-type',
    description: 'capabilities.tools.listChanged is the string "yes"',
  },
  { name: 'no-result-type', breaks: 'base.res.resulttype', description: 'the 2nd tools/list page has no resultType' },
  {
    name: 'unknown-result-type',
    breaks: 'base.resulttype.set',
    description: 'the discover result has resultType "ok"',
  },
  {
    name: 'no-cache-hints',
    breaks: 'cache.server.hints',
    description: 'the last tools/list page has neither ttlMs nor cacheScope',
  },
  { name: 'negative-ttl', breaks: 'cache.server.ttl-nonneg', description: 'the discover result has ttlMs -1' },
  {
    name: 'mixed-cache-scope',
    breaks: 'cache.server.scope-consistent',
    description: 'tools/list page 1 is public, later pages are private',
  },
  {
    name: 'tools-not-array',
    breaks: 'tools.list.respond',
    description: 'the 2nd tools/list page has tools: {} instead of an array',
  },
  {
    name: 'cursor-loop',
    breaks: 'page.walk.terminates',
    description: "the last page's nextCursor leads back to page 2 (endless pagination)",
  },
  {
    name: 'cursor-loop-fresh',
    breaks: 'page.walk.terminates',
    description:
      "every nextCursor is new (an offset and a counter) and the last page's leads back to page 2: endless " +
      'pagination that no cursor comparison sees',
  },
  {
    name: 'duplicate-tool',
    breaks: 'tools.name.unique',
    description: 'the last tools/list page repeats the first tool',
  },
  { name: 'bad-jsonrpc-version', breaks: 'base.jsonrpc', description: 'tools/list responses carry "jsonrpc": "1.0"' },
  {
    name: 'error-id-null',
    breaks: 'base.id.same',
    description: 'JSON-RPC errors answering a well-formed tools/call (an unknown tool, for instance) carry "id": null',
    transports: ['http'],
  },
  {
    name: 'log-without-level',
    breaks: 'log.no-level-no-message',
    description:
      'every tools/call answer is preceded by an error-level notifications/message, log level asked for or not',
    transports: ['stdio'],
  },
  {
    name: 'log-below-level',
    breaks: 'log.may-at-or-above',
    description:
      'a tools/call that sets a log level gets a debug-level notifications/message whatever level it asked for',
    transports: ['stdio'],
  },
  {
    name: 'log-without-capability',
    breaks: 'log.capability-declared',
    description:
      'a tools/call that sets a log level gets a notifications/message at that level, while discover declares ' +
      'no logging capability',
    transports: ['stdio'],
  },
  {
    name: 'log-on-listen',
    breaks: 'log.request-scoped',
    description: 'every subscriptions/listen stream starts with an info-level notifications/message',
    transports: ['http'],
  },
  {
    name: 'log-level-unchecked',
    breaks: 'log.invalid-level',
    description: 'an unknown io.modelcontextprotocol/logLevel ("verbose") is accepted',
    transports: ['stdio'],
  },
  {
    name: 'progress-token-as-number',
    breaks: 'progress.token-ref',
    description: 'progress notifications refer to a progressToken of digits ("9017") by the number it spells (9017)',
    transports: ['stdio'],
  },
  {
    name: 'progress-not-increasing',
    breaks: 'progress.increase',
    description: 'a tools/call with a progressToken gets progress 1, then progress 1 again',
    transports: ['stdio'],
  },
  {
    name: 'progress-after-response',
    breaks: 'progress.stop',
    description: 'a tools/call with a progressToken gets one more progress notification after its response',
    transports: ['stdio'],
  },
  {
    name: 'answer-after-cancel',
    breaks: 'stdio.cancel.server-silence',
    description:
      'get_time answers after 4.5 s, even when the call was cancelled (the audit runs with --timeout 2000, so ' +
      'it cancels the call first)',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
  },
  {
    name: 'progress-after-cancel',
    breaks: 'stdio.cancel.server-silence',
    description:
      'a tools/call with a progressToken answers after 4.5 s; cancelled first (the audit runs with --timeout ' +
      '2000), it drops its answer but still sends its progress notification 300 ms after the cancellation',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
  },
  {
    name: 'log-after-cancel',
    breaks: 'stdio.cancel.server-silence',
    description:
      'a tools/call that asks for log messages answers after 4.5 s; cancelled first (the audit runs with ' +
      '--timeout 2000), it drops its answer but logs the cancellation to the client 300 ms later',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
  },
  {
    name: 'cancel-call-notification',
    breaks: 'cancel.server.no-other',
    description: 'every tools/call answer is followed by a notifications/cancelled for that call',
    transports: ['stdio'],
  },
  {
    name: 'answer-notification',
    breaks: 'base.notif.no-response',
    description: 'a notifications/cancelled without requestId is answered with a -32602 error (without an id)',
    transports: ['stdio'],
  },
  {
    name: 'capabilities-remembered',
    breaks: 'state.no-prior-context',
    description: 'client capabilities declared by one request are added to every later request of the same connection',
    transports: ['stdio'],
  },
  {
    name: 'interim-result-cache-hints',
    breaks: 'cache.irr-no-hints',
    description: 'confirm_action\'s input_required result carries ttlMs 60000 and cacheScope "private"',
    transports: ['stdio'],
  },
  {
    name: 'client-info-unlocks-tool',
    breaks: 'meta.info.no-behavior',
    description: 'lists one more tool (host_diagnostics) to a client whose clientInfo.name is "claude-ai"',
    transports: ['stdio'],
  },
  {
    name: 'bad-traceparent',
    breaks: 'meta.otel.format',
    description: 'tools/list results carry _meta.traceparent "00-trace-1-01" (not W3C Trace Context)',
    transports: ['stdio'],
  },
  {
    name: 'initialize-error-unnamed',
    breaks: 'version.initialize-error-names-versions',
    description: 'initialize is answered "Method not found: initialize", naming no supported version',
    transports: ['stdio'],
  },
  {
    name: 'embedded-resource-undeclared',
    breaks: 'tools.result.embedded-implies-resources',
    description: "get_time's result embeds a resource (clock://utc) while the server declares no resources capability",
    transports: ['stdio'],
  },
  {
    name: 'cursor-single-use',
    breaks: 'page.server.stable-cursors',
    description:
      'a tools/list cursor works once per connection: asked for again, it gets -32602 "Invalid cursor: expired"',
    transports: ['stdio'],
  },
  {
    name: 'request-state-per-connection',
    breaks: 'state.no-connection-affinity',
    description:
      "confirm_action's requestState is bound to the client's connection: the retry on another connection gets -32602",
    transports: ['http'],
  },
  {
    name: 'digit-string-id-as-number',
    breaks: 'base.id.same.string',
    description: 'a request whose id is a string of digits ("900000007") is answered under the number (900000007)',
    transports: ['stdio'],
  },
  {
    name: 'stdout-noise',
    breaks: 'stdio.server.stdout-clean',
    description: 'writes the plain text line "reference server ready" to stdout at start-up',
    transports: ['stdio'],
  },
  {
    name: 'server-request',
    breaks: 'patterns.server-no-requests',
    description: 'sends a roots/list JSON-RPC request before answering the first tools/list',
  },
  {
    name: 'legacy-sampling-unnegotiated',
    breaks: 'lifecycle.capabilities.negotiated',
    description:
      'before answering the first tools/list, sends sampling/createMessage to a client that declared no ' +
      'sampling in initialize, and waits for its answer',
    transports: ['stdio'],
    revision: '2025-11-25',
  },
  {
    name: 'structured-content-omitted',
    breaks: 'tools.output.conform',
    description:
      'tools/call results carry no structuredContent (only its JSON in a text block) although get_weather and ' +
      'add_numbers list an outputSchema: the 2025-03-26 result shape served to a 2025-06-18 session',
    transports: ['stdio'],
    revision: '2025-06-18',
  },
  {
    name: 'session-id-not-visible-ascii',
    breaks: 'http.session.id-visible-ascii',
    description:
      'a Streamable HTTP session of an initialize revision is assigned an id with spaces in it ("mtc session ' +
      '<uuid>"), outside the visible ASCII the id must keep to',
    revision: '2025-06-18',
    transports: ['http'],
  },
  {
    name: 'version-negotiation-echo',
    breaks: 'lifecycle.version-negotiation',
    description:
      'an initialize offering a protocol version no revision has (e.g. "2000-01-01") is answered with that ' +
      'same version instead of one the server supports',
    revision: '2024-11-05',
  },
  {
    name: 'get-stream-json',
    breaks: 'http.get-stream',
    description:
      'a GET to the Streamable HTTP endpoint of an initialize revision is answered 200 with Content-Type: ' +
      'application/json and the body {}, neither an SSE stream nor 405',
    transports: ['http'],
    revision: '2025-03-26',
  },
  {
    name: 'accepted-202-as-200',
    breaks: 'http.accepted-202',
    description:
      'a POST of a single notification or response (notifications/initialized, for one) is accepted with 200 ' +
      'OK and no body instead of 202 Accepted',
    transports: ['http'],
    revision: '2025-06-18',
  },
  {
    name: 'ended-session-404-served',
    breaks: 'http.ended-session-404',
    description:
      'a DELETE naming a Streamable HTTP session is accepted with 200, but the session is kept and served on: ' +
      'requests naming it never get 404',
    transports: ['http'],
    revision: '2025-11-25',
  },
  {
    name: 'id-never-reused-ping-twice',
    breaks: 'base.req.id-never-reused',
    description:
      'before the first tools/list of a session is answered, sends the client two ping requests under the same ' +
      'id ("srv-ping-1")',
    revision: '2024-11-05',
  },
  {
    name: 'batch-rejected',
    breaks: 'base.batch.receive',
    description:
      'a 2025-03-26 session answers every JSON-RPC batch with one -32600 error ("batches are not supported"), ' +
      'as servers of 2025-06-18 on may',
    revision: '2025-03-26',
  },
  {
    name: 'notification-batch-answered',
    breaks: 'http.batch.notifications-202',
    description:
      'a POST whose body is a batch of notifications only is answered 200 with an empty JSON array instead of ' +
      '202 Accepted with no body',
    transports: ['http'],
    revision: '2025-03-26',
  },
  {
    name: 'audio-content-on-2024-11-05',
    breaks: 'schema.result.valid',
    description:
      "get_logo's result ends with an audio block, a content type that arrived with 2025-03-26 (a 2024-11-05 " +
      'CallToolResult holds text, image and resource blocks); 2024-11-05 tools have no annotations, so the ' +
      'audit runs with --allow-tools get_logo',
    transports: ['stdio'],
    auditArgs: ['--allow-tools', 'get_logo'],
    revision: '2024-11-05',
  },
  {
    name: 'bad-instructions',
    breaks: 'schema.result.valid',
    description: 'the discover result has instructions: 42 (a number)',
  },
  {
    name: 'tool-name-too-long',
    breaks: 'tools.name.length',
    description: 'lists an extra tool whose name is 129 characters long',
  },
  {
    name: 'tool-name-with-space',
    breaks: 'tools.name.charset',
    description: 'lists an extra tool named "get forecast"',
  },
  { name: 'tool-title-not-string', breaks: 'tools.tool.shape', description: 'the first tool has title: 42' },
  {
    name: 'tool-without-description',
    breaks: 'tools.tool.description',
    description: 'the second tool has no description',
  },
  {
    name: 'hidden-text-in-description',
    breaks: 'tools.tool.hidden-text',
    description: "the second tool's description hides a ZERO WIDTH SPACE (U+200B) inside a word",
  },
  {
    name: 'input-schema-not-object',
    breaks: 'tools.schema.input-valid-object',
    description: 'lists an extra tool whose inputSchema has type "string"',
  },
  {
    name: 'annotation-not-boolean',
    breaks: 'tools.annotations.types',
    description: 'the first tool has annotations.readOnlyHint: "yes"',
  },
  {
    name: 'read-only-writes',
    breaks: 'tools.annotations.read-only-honest',
    description: 'search_docs (readOnlyHint: true) appends each query to $TMPDIR/mtc-reference-search-history.log',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
  },
  {
    name: 'non-destructive-deletes',
    breaks: 'tools.annotations.destructive-honest',
    description:
      'the server writes $TMPDIR/mtc-reference-notes.json as it starts (unless it is there), ' +
      'and create_note (destructiveHint: false) deletes it',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
  },
  {
    name: 'idempotent-appends',
    breaks: 'tools.annotations.idempotent-honest',
    description:
      'delete_note (idempotentHint: true) appends each call to $TMPDIR/mtc-reference-deletions.log, ' +
      'and answers a note that is not there as deleted already',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
  },
  {
    name: 'icon-sizes-not-array',
    breaks: 'icons.shape',
    description: 'the first tool has an icon whose sizes is the string "48x48"',
  },
  {
    name: 'icon-javascript-scheme',
    breaks: 'icons.safe-scheme',
    description: 'the first tool has an icon whose src is a javascript: URI',
  },
  {
    name: 'invalid-input-schema',
    breaks: 'jsonschema.valid.input',
    description: 'lists an extra tool whose inputSchema has type "strng" on a property',
  },
  {
    name: 'invalid-output-schema',
    breaks: 'jsonschema.valid.output',
    description: 'lists an extra tool whose outputSchema has required: "temperature" (not an array)',
  },
  {
    name: 'draft-07-schema',
    breaks: 'jsonschema.dialect.recommended',
    description: 'lists an extra tool whose inputSchema declares draft-07',
  },
  {
    name: 'dangling-ref',
    breaks: 'jsonschema.ref.resolves',
    description: 'lists an extra tool whose inputSchema $refs #/$defs/missing',
  },
  {
    name: 'external-ref',
    breaks: 'jsonschema.ref.external',
    description: 'lists an extra tool whose inputSchema $refs https://example.com/schemas/address.json',
  },
  { name: 'xmcp-empty', breaks: 'xmcp.value.non-empty', description: 'lists an extra tool with x-mcp-header ""' },
  {
    name: 'xmcp-not-token',
    breaks: 'xmcp.value.token',
    description: 'lists an extra tool with x-mcp-header "My Region"',
  },
  {
    name: 'xmcp-control-char',
    breaks: 'xmcp.value.no-ctl',
    description: 'lists an extra tool with an x-mcp-header containing CR LF',
  },
  {
    name: 'xmcp-duplicate',
    breaks: 'xmcp.value.unique-ci',
    description: 'lists an extra tool with x-mcp-header "Region" and "REGION"',
  },
  {
    name: 'xmcp-number',
    breaks: 'xmcp.target.primitive',
    description: 'lists an extra tool with x-mcp-header on a number parameter',
  },
  {
    name: 'xmcp-unsafe-integer',
    breaks: 'xmcp.target.int-safe-range',
    description:
      'lists an extra tool with x-mcp-header on an integer with minimum 2^60 (every value it admits is unsafe)',
  },
  {
    name: 'xmcp-unreachable',
    breaks: 'xmcp.target.static-reach',
    description: 'lists an extra tool with x-mcp-header under items',
  },
  {
    name: 'xmcp-sensitive',
    breaks: 'xmcp.server.no-sensitive',
    description: 'lists an extra tool with x-mcp-header on an api_key parameter',
  },
  {
    name: 'python-style-pattern',
    breaks: 'jsonschema.pattern.ecma',
    description:
      'get_weather lists its location with the Python-style pattern ^(?P<city>.+)\\Z (calls are still served)',
  },
  {
    name: 'xmcp-property-named-default',
    breaks: 'xmcp.target.primitive',
    description:
      'lists an extra tool with x-mcp-header on a number parameter named "default" (and a conforming one with ' +
      'a parameter named "x-mcp-header")',
  },
  {
    name: 'shuffled-order',
    breaks: 'tools.list.deterministic-order',
    description: 'rotates the tools within each tools/list page by one more position on every tools/list request',
  },
  {
    name: 'connection-scoped-tools',
    breaks: 'tools.list.no-connection-variance',
    description:
      'the last tools/list page gains a tool named after the connection (conn_<pid> on stdio, conn_<client ' +
      'port> on HTTP)',
  },
  {
    name: 'invalid-cursor-ignored',
    breaks: 'page.server.invalid-32602',
    description: 'a tools/list cursor that does not decode answers page 1 instead of -32602',
  },
  {
    name: 'meta-not-required',
    breaks: 'meta.req.missing-32602',
    description:
      'a missing or mistyped _meta protocolVersion / clientCapabilities is taken as "2026-07-28" / {} instead ' +
      'of -32602',
  },
  {
    name: 'meta-missing-200',
    breaks: 'meta.req.missing-http-400',
    description: 'the -32602 for a missing or invalid _meta comes with HTTP 200',
    transports: ['http'],
  },
  {
    name: 'version-not-checked',
    breaks: 'version.unsupported-32022',
    description: 'serves any protocolVersion string instead of -32022',
  },
  {
    name: 'version-error-200',
    breaks: 'http.pv.unsupported',
    description: 'the -32022 error comes with HTTP 200',
    transports: ['http'],
  },
  {
    name: 'protocol-header-optional',
    breaks: 'http.pv.missing-reject',
    description: 'serves requests without MCP-Protocol-Version (compares it with the body only when present)',
    transports: ['http'],
  },
  {
    name: 'protocol-header-mismatch-ignored',
    breaks: 'http.pv.mismatch',
    description: 'requires MCP-Protocol-Version but does not compare it with the body version',
    transports: ['http'],
  },
  {
    name: 'method-header-optional',
    breaks: 'http.validate.missing-std',
    description: 'serves requests without Mcp-Method (compares it with the body only when present)',
    transports: ['http'],
  },
  {
    name: 'method-header-mismatch-ignored',
    breaks: 'http.validate.mismatch',
    description: 'requires Mcp-Method but does not compare it with the body method',
    transports: ['http'],
  },
  {
    name: 'unknown-method-200',
    breaks: 'http.method-not-found',
    description: 'the -32601 for an unknown method comes with HTTP 200',
    transports: ['http'],
  },
  {
    name: 'get-allowed',
    breaks: 'http.compat.get-delete-405',
    description: 'answers GET and DELETE on the MCP endpoint with 200 and the JSON body {}',
    transports: ['http'],
  },
  {
    name: 'session-minted',
    breaks: 'http.compat.ignore-session',
    description: 'every HTTP response carries a random Mcp-Session-Id header',
    transports: ['http'],
  },
  {
    name: 'unknown-tool-is-error',
    breaks: 'tools.err.unknown-tool',
    description: 'tools/call of an unknown tool answers a result with isError: true instead of -32602',
  },
  {
    name: 'malformed-arguments-accepted',
    breaks: 'tools.err.protocol-errors',
    description: 'tools/call arguments that are not an object (array, string, null) are treated as {}',
  },
  {
    name: 'unknown-tool-32002',
    breaks: 'err.retired',
    description: 'tools/call of an unknown tool answers the retired code -32002',
  },
  {
    name: 'unknown-tool-32050',
    breaks: 'err.reserved.only-defined',
    description: 'tools/call of an unknown tool answers -32050, undefined in the MCP-reserved range',
  },
  {
    name: 'unknown-tool-32001',
    breaks: 'err.legacy.should-not-use',
    description: 'tools/call of an unknown tool answers the pre-release code -32001 (legacy range)',
  },
  {
    name: 'unknown-tool-32020',
    breaks: 'err.reserved.meaning',
    description: 'tools/call of an unknown tool answers -32020 (HeaderMismatch) over stdio, where there are no headers',
    transports: ['stdio'],
  },
  {
    name: 'task-result-unnegotiated',
    breaks: 'base.resulttype.set',
    description:
      'advertises the io.modelcontextprotocol/tasks extension and answers get_time with resultType "task" to a ' +
      'client that declared no extension',
    transports: ['stdio'],
  },
  {
    name: 'unknown-tool-32500',
    breaks: 'err.app-codes-outside',
    description: 'tools/call of an unknown tool answers -32500, an application code inside the JSON-RPC reserved range',
    transports: ['stdio'],
  },
  {
    name: 'valid-args-rejected',
    breaks: 'tools.err.tool-errors-in-result',
    description: 'echo answers every call with -32602, even with valid arguments',
  },
  {
    name: 'structured-output-mismatch',
    breaks: 'tools.output.conform',
    description:
      'get_weather returns humidity as a string ("65%"), breaking its outputSchema (the text mirror follows)',
  },
  {
    name: 'no-text-mirror',
    breaks: 'tools.result.structured-text-mirror',
    description: 'add_numbers returns structuredContent with a prose text block instead of its JSON',
  },
  {
    name: 'invalid-args-succeed',
    breaks: 'tools.err.execution-errors',
    description: 'get_time skips input validation: arguments its schema forbids succeed',
  },
  {
    name: 'coerces-any-type',
    breaks: 'tools.err.execution-errors',
    description:
      'echo converts its text from any JSON type with String() before validating, as z.coerce.string() does: ' +
      '[] is echoed as an empty text',
  },
  {
    name: 'irr-without-capability',
    breaks: 'mrtr.irr.declared-only',
    description:
      'confirm_action sends its elicitation input request even when the call declared no elicitation capability',
  },
  {
    name: 'missing-capability-no-data',
    breaks: 'meta.caps.missing-32021',
    description: 'the -32021 of confirm_action has no data.requiredCapabilities',
  },
  {
    name: 'missing-capability-200',
    breaks: 'meta.caps.missing-http-400',
    description: 'the -32021 of confirm_action is sent with HTTP 200',
    transports: ['http'],
  },
  {
    name: 'retry-answer-rejected',
    breaks: 'mrtr.retry.completes',
    description: 'confirm_action answers every retry that carries inputResponses with -32603 instead of a result',
  },
  {
    name: 'irr-empty',
    breaks: 'mrtr.irr.non-empty',
    description:
      'confirm_action answers input_required with neither inputRequests nor requestState (and completes on any retry)',
  },
  {
    name: 'param-header-always-rejected',
    breaks: 'xmcp.server.validate-present',
    description: 'any tools/call carrying Mcp-Param-Region is rejected with 400 -32020, even a correct one',
    transports: ['http'],
  },
  {
    name: 'param-header-not-required',
    breaks: 'xmcp.server.reject-missing',
    description: 'a tools/call whose region argument is set but lacks Mcp-Param-Region is served',
    transports: ['http'],
  },
  {
    name: 'param-header-not-compared',
    breaks: 'xmcp.server.validate',
    description: 'Mcp-Param-Region is not compared with the region argument',
    transports: ['http'],
  },
  {
    name: 'param-header-no-base64',
    breaks: 'enc.server.decode',
    description: 'Mcp-Param-Region is compared without decoding the =?base64?…?= form',
    transports: ['http'],
  },
  {
    name: 'name-header-optional',
    breaks: 'http.validate.missing-std',
    description: 'a tools/call without Mcp-Name is served',
    transports: ['http'],
  },
  {
    name: 'name-header-mismatch-ignored',
    breaks: 'http.validate.mismatch',
    description: 'Mcp-Name must be present but is not compared with params.name',
    transports: ['http'],
  },
  {
    name: 'tools-change-after-call',
    breaks: 'tools.list.no-connection-variance.after-calls',
    description:
      'once a connection has made a tools/call, its tools/list shows an extra tool recent_calls (fresh ' +
      'connections do not see it)',
  },
  {
    name: 'listen-no-ack',
    breaks: 'subs.ack.first',
    description: 'subscriptions/listen opens the stream but never sends notifications/subscriptions/acknowledged',
  },
  {
    name: 'ack-superset',
    breaks: 'subs.ack.subset',
    description:
      'the acknowledgement also grants promptsListChanged, which was not requested (and the server has no prompts)',
  },
  {
    name: 'subscription-id-as-string',
    breaks: 'meta.notif.subscription-id',
    description: 'the acknowledgement carries the listen id as a string ("7" for the numeric id 7)',
  },
  {
    name: 'no-list-changed-notification',
    breaks: 'tools.listchanged.notify',
    description: 'toggle_beta_tools changes the tool set but no notifications/tools/list_changed is sent',
    auditArgs: LIST_CHANGED_TRIGGER_ARGS,
  },
  {
    name: 'list-changed-to-all',
    breaks: 'subs.no-unrequested',
    description:
      'notifications/tools/list_changed goes to every open subscription, also those that did not ask for ' +
      'toolsListChanged',
    auditArgs: LIST_CHANGED_TRIGGER_ARGS,
  },
  {
    name: 'list-changed-on-list-stream',
    breaks: 'http.sse.related',
    description:
      'tools/list answers with an SSE stream that carries notifications/tools/list_changed before the result',
    transports: ['http'],
  },
  {
    name: 'meta-key-empty-label',
    breaks: 'meta.key.prefix',
    description: 'the first tool definition has _meta {"com..example/priority": "high"} (an empty prefix label)',
  },
  {
    name: 'meta-key-bad-label',
    breaks: 'meta.key.labels',
    description: 'echo results carry a text block with _meta {"com.example-/source": "echo"} (a label ending in "-")',
  },
  {
    name: 'meta-key-bad-name',
    breaks: 'meta.key.name',
    description: 'the discover result _meta gains the key "com.example/_trace" (a name starting with "_")',
  },
  {
    name: 'extension-id-unprefixed',
    breaks: 'version.ext.id-format',
    description: 'discover capabilities advertise extensions {"tasks": {}} (no prefix)',
  },
  {
    name: 'no-origin-check',
    breaks: 'http.origin.validate',
    description: 'serves requests whatever their Origin header says',
    transports: ['http'],
  },
  {
    name: 'origin-rejected-400',
    breaks: 'http.origin.403',
    description: 'rejects a foreign Origin with 400 instead of 403',
    transports: ['http'],
  },
  {
    name: 'ignore-stdin-eof',
    breaks: 'stdio.shutdown.server-exit',
    description: 'keeps running after stdin is closed (until a signal ends it)',
    transports: ['stdio'],
  },
  {
    name: 'error-as-text-plain',
    breaks: 'http.req.content-type',
    description: 'JSON-RPC error responses (the JSON body unchanged) are labelled Content-Type: text/plain',
    transports: ['http'],
  },
  {
    name: 'rare-internal-error',
    breaks: 'tools.err.tool-errors-in-result.property',
    description:
      'adds a read-only tool format_label that answers -32603 for one rare valid input: style "code" with an ' +
      'empty text',
  },
  {
    name: 'lenient-missing-required',
    breaks: 'tools.err.execution-errors.property',
    description:
      'adds a read-only tool lookup_code whose required "code" may be left out, silently, when mode is "lenient"',
  },
  {
    name: 'rare-output-mismatch',
    breaks: 'tools.output.conform.property',
    description:
      'adds a read-only tool text_stats whose structuredContent count is a string ("3 lines") when unit is "lines"',
  },
  {
    name: 'rare-integer-output-mismatch',
    breaks: 'tools.output.conform.property',
    description:
      'adds a read-only tool offset_reading whose structuredContent value is a string when the reading is an ' +
      'integer with |reading| % 7 == 3 and the offset is negative',
  },
  {
    name: 'crash-on-rare-input',
    breaks: null,
    chaos: true,
    description:
      'adds format_label (see rare-internal-error); the process exits with code 70 on its rare input instead ' +
      'of answering',
    transports: ['stdio'],
  },
  { name: 'hang-on-list', breaks: null, chaos: true, description: 'never answers tools/list (keeps running)' },
  {
    name: 'server-request-waits',
    breaks: null,
    chaos: true,
    description:
      'sends a roots/list JSON-RPC request before answering the first tools/list, and waits for the answer a ' +
      '2026-07-28 client never sends',
    transports: ['stdio'],
  },
  {
    name: 'hang-get-time',
    breaks: null,
    chaos: true,
    description: 'never answers a tools/call of the read-only get_time (keeps serving everything else)',
  },
  {
    name: 'exit-after-discover',
    breaks: null,
    chaos: true,
    description: 'exits with code 1 right after answering server/discover',
    transports: ['stdio'],
  },
  {
    name: 'garbage-on-list',
    breaks: null,
    chaos: true,
    description: 'answers tools/list with the line "this is not json"',
    transports: ['stdio'],
  },
  {
    name: 'wrong-id-on-list',
    breaks: null,
    chaos: true,
    description: 'answers tools/list with the right result under a different id',
  },
  {
    name: 'tool-lookup-before-headers',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: a tools/call of a name it does not list is answered -32602 before the headers are validated',
    transports: ['http'],
  },
  {
    name: 'no-read-only-hints',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: no tool definition carries annotations.readOnlyHint (so by default no tool may be called)',
  },
  {
    name: 'region-pattern',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: search_docs lists region with pattern ^[a-z]{2}-[a-z]+-[0-9]$ and answers any other ' +
      'region with -32602 (HTTP 400)',
  },
  {
    name: 'region-refused',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: search_docs answers -32602 (HTTP 400) for every region but eu-central-1, which its ' +
      'inputSchema does not say',
  },
  {
    name: 'param-header-expected-for-null',
    breaks: 'xmcp.server.no-expect-null-or-absent',
    description:
      'a tools/call whose x-mcp-header argument is null gets 400/-32020 unless it carries that Mcp-Param-* header',
    transports: ['http'],
  },
  {
    name: 'param-header-chars-unchecked',
    breaks: 'xmcp.server.reject-invalid-chars',
    description:
      'Mcp-Param-* values are compared as Node reads them (bytes as ISO-8859-1) without rejecting characters ' +
      'outside visible ASCII, space and tab',
    transports: ['http'],
  },
  {
    name: 'header-names-case-sensitive',
    breaks: 'http.hdr.name-ci',
    description:
      'an MCP header counts only when its name is spelled MCP-Protocol-Version, Mcp-Method, Mcp-Name or ' +
      'Mcp-Param-<Capitalised>; mcp-method or MCP-METHOD is as good as missing (400/-32020)',
    transports: ['http'],
  },
  {
    name: 'request-state-tamper-hang',
    breaks: 'mrtr.requeststate.untrusted',
    description:
      'tools/call decodes a requestState before checking its signature: a truncated or empty state leaves the ' +
      'call unanswered (the audit runs with --timeout 2000)',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
  },
  {
    name: 'request-state-unverified',
    breaks: 'mrtr.requeststate.replay-binding',
    description:
      'confirm_action never verifies a requestState: a tampered one (a character changed, truncated, empty) ' +
      'carries the retry to completion',
    transports: ['stdio'],
  },
  {
    name: 'elicit-url-mode-undeclared',
    breaks: 'elicit.server.modes',
    description:
      'confirm_action asks through a URL-mode elicitation although the call declared form mode only ' +
      '(elicitation: {form: {}} or {})',
    transports: ['stdio'],
  },
  {
    name: 're-request-error',
    breaks: 'mrtr.server.re-request',
    description:
      'confirm_action answers a retry with a valid requestState but no answer to its input request with -32602 ' +
      'instead of asking again',
    transports: ['stdio'],
  },
  {
    name: 'extra-input-response-rejected',
    breaks: 'mrtr.server.ignore-extra',
    description: 'confirm_action answers -32602 when inputResponses holds a key it did not ask for',
    transports: ['stdio'],
  },
  {
    name: 'input-responses-unvalidated',
    breaks: 'mrtr.server.validate-inputresponses',
    description:
      'tools/call treats an inputResponses that is not an object (a string) as absent, so confirm_action asks ' +
      'again instead of answering -32602',
    transports: ['stdio'],
  },
  {
    name: 'no-x-accel-buffering',
    breaks: 'http.sse.x-accel',
    description:
      'responses that start an SSE stream (subscriptions/listen, a tools/call streaming log messages) carry no ' +
      'X-Accel-Buffering header',
    transports: ['http'],
  },
  {
    name: 'last-event-id-rejected',
    breaks: 'http.compat.ignore-last-event-id',
    description:
      'a POST carrying a Last-Event-ID header is answered 400 with -32600 ("names no stream to resume") ' +
      'instead of being served',
    transports: ['http'],
  },
  {
    name: 'method-header-case-insensitive',
    breaks: 'http.hdr.value-cs',
    description:
      'Mcp-Method is compared with the body method case-insensitively: tools/list sent with Mcp-Method: ' +
      'TOOLS/LIST is served',
    transports: ['http'],
  },
  {
    name: 'latin1-response',
    breaks: 'transport.utf8',
    description:
      'the first server/discover answer is written in ISO-8859-1: its instructions end "Served from a café." ' +
      'with é as the single byte 0xE9',
    transports: ['stdio'],
  },
]);

export type DefectName = (typeof DEFECTS)[number]['name'];

export type DefectSet = ReadonlySet<DefectName>;

export const NO_DEFECTS: DefectSet = new Set<DefectName>();

export function findDefect(name: string): DefectDefinition | undefined {
  return (DEFECTS as readonly DefectDefinition[]).find((defect) => defect.name === name);
}

export function isDefectName(name: string): name is DefectName {
  return findDefect(name) !== undefined;
}

export function defectAvailableOn(defect: DefectDefinition, transport: 'stdio' | 'http'): boolean {
  return defect.transports === undefined || defect.transports.includes(transport);
}

/**
 * Whether a server started as this revision has the defect's rule to break: a defect of an initialize revision needs
 * that one or a newer one.
 */
export function defectAvailableAs(defect: DefectDefinition, revision: Revision): boolean {
  return defect.revision === undefined || (isInitializeRevision(revision) && revision >= defect.revision);
}

export function formatDefectList(): string {
  return DEFECTS.map((defect) => `${defect.name}\t${defect.breaks ?? '-'}\t${defect.description}`).join('\n');
}
