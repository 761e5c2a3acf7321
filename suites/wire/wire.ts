import { defineCheck } from '../kit/define-check.js';
import {
  CATCH_ALL_CHECK,
  type CheckDefinition,
  describeIssues,
  type Evidence,
  isObject,
  methodOf,
  type SpecSentence,
  validateWire,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { responseIds, stringIds } from './response-ids.js';

const JSONRPC_2: SpecSentence = {
  ref: 'basic/index#messages',
  text: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.',
  keyword: 'MUST',
};
const ERROR_FIELDS =
  'Error responses MUST include an error field with a code and message. Error codes MUST be integers.';
/** 2025-03-26 and 2025-06-18 word the error fields so. */
const ERRORS_AT_MINIMUM: readonly SpecSentence[] = [
  {
    ref: 'basic/index#responses',
    text:
      'Results MAY follow any JSON object structure, while errors MUST include an error code and message at ' +
      'minimum.',
    keyword: 'MUST',
  },
  { ref: 'basic/index#responses', text: 'Error codes MUST be integers.', keyword: 'MUST' },
];

export const jsonRpcEnvelope: CheckDefinition = defineCheck({
  id: 'base.jsonrpc',
  covers: ['base.err.code-message', 'base.err.int-codes'],
  title: 'Every message the server sends is a well-formed JSON-RPC 2.0 message',
  area: 'wire',
  sentences: {
    '2026-07-28': [JSONRPC_2, { ref: 'basic/index#error-responses', text: ERROR_FIELDS, keyword: 'MUST' }],
    '2025-11-25': [JSONRPC_2, { ref: 'basic/index#error-responses', text: ERROR_FIELDS, keyword: 'MUST' }],
    '2025-06-18': [JSONRPC_2, ...ERRORS_AT_MINIMUM],
    '2025-03-26': [JSONRPC_2, ...ERRORS_AT_MINIMUM],
    '2024-11-05': [
      {
        ref: 'basic/messages',
        text: 'All messages in MCP MUST follow the JSON-RPC 2.0 specification.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/messages#responses',
        text: 'Either a result or an error MUST be set. A response MUST NOT set both. Error codes MUST be integers.',
        keyword: 'MUST',
      },
    ],
  },
  phase: 'final',
  run(ctx) {
    const received: { message: unknown; evidence: Evidence }[] = [];
    for (const exchange of ctx.exchanges()) {
      if (exchange.response !== undefined) received.push({ message: exchange.response, evidence: exchange });
      for (const n of exchange.notifications) received.push({ message: n, evidence: exchange });
    }
    for (const stray of ctx.strays()) {
      if (stray.kind !== 'non-json' && stray.kind !== 'stderr')
        received.push({ message: stray.data, evidence: note(`unsolicited ${stray.kind}`, stray.data) });
    }
    if (received.length === 0) return [skip('no message was received')];
    const bad = received
      .map((r) => ({ ...r, issues: validateWire('JSONRPCMessage', ctx.revision, r.message) }))
      .filter((r) => r.issues.length > 0);
    if (bad.length === 0) return [pass(`${received.length} messages are valid JSON-RPC 2.0`)];
    const first = bad[0]!.message;
    // The schema's oneOf only says "boolean schema is false" for this one; JSON-RPC 2.0 §5 says it plainly.
    const both =
      isObject(first) && 'result' in first && 'error' in first
        ? `a response to id ${JSON.stringify(first.id)} carries both result and error; `
        : '';
    return [
      fail(
        `${bad.length} of ${received.length} messages are not valid JSON-RPC 2.0: ${both}` +
          `${describeIssues(bad[0]!.issues, 3)}`,
        '{"jsonrpc": "2.0", "id": <string|integer>, "result": {…}} or {"jsonrpc": "2.0", "id": …, "error": ' +
          '{"code": <integer>, "message": <string>}}',
        bad.slice(0, 5).map((b) => b.evidence),
      ),
    ];
  },
});

const SCHEMA_SOURCE_OF_TRUTH: SpecSentence = {
  ref: 'basic/index#schema',
  text: 'This is the source of truth for all protocol messages and structures.',
  keyword: 'descriptive',
};
const LIST_TOOLS_REQUIRED: SpecSentence = {
  ref: 'schema.json#/definitions/ListToolsResult/required',
  text: '["tools"]',
  keyword: 'schema.json structural rule',
};

export const resultSchemas: CheckDefinition = defineCheck({
  id: CATCH_ALL_CHECK,
  covers: ['mrtr.irr.value-types'],
  title: 'Every result matches the schema of its method (fields not covered by a more specific check)',
  specRef: 'basic/index#schema',
  area: 'wire',
  sentences: {
    '2026-07-28': [
      { ref: 'schema.json#/$defs/Result/required', text: '["resultType"]', keyword: 'schema.json structural rule' },
      SCHEMA_SOURCE_OF_TRUTH,
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text:
          'inputRequests values are request objects that MUST be one of ElicitRequest, CreateMessageRequest, or ' +
          'ListRootsRequest',
        keyword: 'MUST',
      },
    ],
    '2025-11-25': [
      { ref: 'schema.json#/$defs/ListToolsResult/required', text: '["tools"]', keyword: 'schema.json structural rule' },
      SCHEMA_SOURCE_OF_TRUTH,
    ],
    // The older schema.json files keep their types under definitions, not $defs.
    '2025-06-18': [LIST_TOOLS_REQUIRED, SCHEMA_SOURCE_OF_TRUTH],
    '2025-03-26': [LIST_TOOLS_REQUIRED, SCHEMA_SOURCE_OF_TRUTH],
    '2024-11-05': [LIST_TOOLS_REQUIRED, SCHEMA_SOURCE_OF_TRUTH],
  },
  phase: 'final',
  run(ctx) {
    const withIssues = ctx
      .exchanges()
      .map((exchange) => ({ exchange, issues: ctx.schemas.issuesFor(this.id, exchange, ctx.revision) }))
      .filter((e) => e.issues.length > 0);
    const validated = ctx.exchanges().filter((e) => isObject(e.response) && 'result' in e.response).length;
    if (validated === 0) return [skip('no result was received')];
    if (withIssues.length === 0) return [pass(`${validated} results match their schemas`)];
    return withIssues
      .slice(0, 10)
      .map(({ exchange, issues }) =>
        fail(
          `${methodOf(exchange)} result: ${describeIssues(issues)}`,
          `a result valid against the ${ctx.revision} schema for ${methodOf(exchange)}`,
          [exchange],
        ),
      );
  },
});

/** The stdio section of the initialize revisions, worded alike in all four. */
const STDIO_STDOUT: readonly SpecSentence[] = [
  {
    ref: 'basic/transports#stdio',
    text: 'The server MUST NOT write anything to its stdout that is not a valid MCP message.',
    keyword: 'MUST NOT',
  },
  {
    ref: 'basic/transports#stdio',
    text: 'Messages are delimited by newlines, and MUST NOT contain embedded newlines.',
    keyword: 'MUST NOT',
  },
];

export const stdoutClean: CheckDefinition = defineCheck({
  id: 'stdio.server.stdout-clean',
  covers: ['stdio.no-embedded-newlines'],
  title: 'The server writes nothing but MCP messages to stdout',
  area: 'wire',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/transports/stdio',
        text: 'The server MUST NOT write anything to its stdout that is not a valid MCP message.',
        keyword: 'MUST NOT',
      },
      // A message with an embedded newline arrives as lines that are not messages.
      {
        ref: 'basic/transports/stdio',
        text: 'Messages are delimited by newlines, and MUST NOT contain embedded newlines.',
        keyword: 'MUST NOT',
      },
    ],
    '2025-11-25': STDIO_STDOUT,
    '2025-06-18': STDIO_STDOUT,
    '2025-03-26': STDIO_STDOUT,
    '2024-11-05': STDIO_STDOUT,
  },
  needs: ['stdio'],
  phase: 'final',
  run(ctx) {
    const noise = ctx.strays().filter((s) => s.kind === 'non-json');
    if (noise.length === 0) return [pass('every stdout line was a JSON message')];
    return [
      fail(
        `${noise.length} stdout line(s) were not JSON-RPC messages, first: ` +
          `${JSON.stringify(String(noise[0]!.data).slice(0, 200))}`,
        'only newline-delimited JSON-RPC messages on stdout; logs belong on stderr',
        noise.slice(0, 5).map((n) => note(`stdout line at ${n.at}`, n.data)),
      ),
    ];
  },
});

export const noServerRequests: CheckDefinition = defineCheck({
  id: 'patterns.server-no-requests',
  covers: ['mrtr.server-requests-via-mrtr', 'http.sse.no-requests'],
  title: 'The server never sends JSON-RPC requests to the client',
  area: 'wire',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns',
        text: 'Servers MUST NOT initiate JSON-RPC requests, and clients do not send JSON-RPC responses.',
        keyword: 'MUST NOT',
      },
      {
        ref: 'basic/patterns/mrtr',
        text:
          'Servers MUST send server-to-client requests (such as roots/list, sampling/createMessage, or ' +
          'elicitation/create) using the MRTR pattern.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/transports/streamable-http#receiving-messages',
        text: 'The server MUST NOT send independent JSON-RPC _requests_ on this stream.',
        keyword: 'MUST NOT',
      },
    ],
  },
  phase: 'final',
  run(ctx) {
    const requests: Evidence[] = [];
    for (const exchange of ctx.exchanges()) {
      if (exchange.notifications.some((n) => isObject(n) && 'method' in n && 'id' in n)) requests.push(exchange);
    }
    for (const stray of ctx.strays()) {
      if (
        stray.kind === 'server-request' &&
        !requests.some((r) => 'notifications' in r && r.notifications.includes(stray.data))
      ) {
        requests.push(note('unsolicited server request', stray.data));
      }
    }
    if (requests.length === 0) return [pass('no server-initiated request was seen')];
    return [
      fail(
        `the server sent ${requests.length} JSON-RPC request(s) to the client`,
        'server-to-client interactions travel as inputRequests inside an InputRequiredResult (MRTR), never as requests',
        requests.slice(0, 5),
      ),
    ];
  },
});

const UTF8: SpecSentence = {
  ref: 'basic/transports',
  text: 'JSON-RPC messages MUST be UTF-8 encoded.',
  keyword: 'MUST',
};

/**
 * transport.utf8: the transports decode every stdio line, HTTP body and SSE event whole and strictly (when the lenient
 * decode shows a U+FFFD), and count the JSON messages whose bytes were not valid UTF-8 (Exchange.invalidUtf8,
 * StrayEvent.invalidUtf8). A line that is not JSON at all is stdio.server.stdout-clean's, not counted here.
 */
export const utf8Messages: CheckDefinition = defineCheck({
  id: 'transport.utf8',
  title: 'Every message the server sends is UTF-8 encoded',
  area: 'wire',
  sentences: {
    '2026-07-28': [
      { ref: 'basic/transports/index#messages', text: 'JSON-RPC messages MUST be UTF-8 encoded.', keyword: 'MUST' },
    ],
    '2025-11-25': [UTF8],
    '2025-06-18': [UTF8],
    '2025-03-26': [UTF8],
    // 2024-11-05's transports page says nothing of the messages' encoding.
  },
  phase: 'final',
  run(ctx) {
    const exchanges = ctx.exchanges();
    const received = exchanges.reduce(
      (n, e) => n + (e.response !== undefined ? 1 : 0) + e.notifications.length + (e.notificationsDropped ?? 0),
      0,
    );
    const strays = ctx.strays().filter((s) => s.kind !== 'non-json' && s.kind !== 'stderr');
    if (received + strays.length === 0) return [skip('no message was received')];
    const marked = exchanges.filter((e) => (e.invalidUtf8 ?? 0) > 0);
    const badStrays = strays.filter((s) => s.invalidUtf8);
    const bad = marked.reduce((n, e) => n + e.invalidUtf8!, 0) + badStrays.length;
    if (bad === 0) return [pass(`${received + strays.length} messages received, all valid UTF-8`)];
    const where = ctx.transportKind === 'stdio' ? 'stdout line(s)' : 'HTTP body/SSE event(s)';
    return [
      fail(
        `${bad} message(s) arrived as ${where} that are not valid UTF-8 (read with U+FFFD in place of the bad ` +
          `bytes)${marked[0] ? `, e.g. in the ${methodOf(marked[0])} exchange #${marked[0].seq}` : ''}`,
        'every JSON-RPC message UTF-8 encoded (text in another encoding, e.g. a Latin-1 byte such as 0xE9 for ' +
          'é, is not UTF-8)',
        [
          ...marked.slice(0, 3),
          ...badStrays
            .slice(0, 2)
            .map((s) => note(`unsolicited ${s.kind} that was not valid UTF-8, at ${s.at}`, s.data)),
        ],
      ),
    ];
  },
});

export const WIRE_CHECKS = [
  jsonRpcEnvelope,
  responseIds,
  stringIds,
  resultSchemas,
  stdoutClean,
  noServerRequests,
  utf8Messages,
] as const;
