import {
  type ClientCheckDefinition,
  CUT_STREAM_EVENT_IDS,
  decodeHeaderValue,
  encodeHeaderValue,
  evidenceOf,
  isObject,
  isPlainHeaderSafe,
  META_PROTOCOL_VERSION,
  NAME_HEADER_SOURCE,
  type SeenRequest,
  TOOL,
} from '../kit/index.js';
import { onRevisions } from '../kit/same-sentences.js';
import { clientCheck, describeRequest, fail, judgeDriverLine, judgeRequests, pass, sentence, skip } from './kit.js';

const SENDING = 'basic/transports/streamable-http#sending-messages';
const header = (r: SeenRequest, name: string): string | undefined => r.seen.http?.headers[name.toLowerCase()];
const decoded = (value: string): string | undefined => {
  try {
    return decodeHeaderValue(value);
  } catch {
    return undefined;
  }
};
/**
 * Requests that came in a POST: the ones the Streamable HTTP header rules bind (notification POSTs have none defined).
 */
const posted = (requests: readonly SeenRequest[]) => requests.filter((r) => r.seen.http?.method === 'POST');

export const SINGLE_MESSAGE = clientCheck({
  id: 'http.client.single-message',
  title: 'Each POST body is one JSON-RPC message (no batch arrays)',
  area: 'http',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(SENDING, 'The body of the HTTP POST MUST be a single JSON-RPC _request_ or _notification_.', 'MUST'),
  ],
  run(ctx) {
    const posts = ctx.observed.messages.filter((m) => m.http?.method === 'POST');
    const batches = posts.filter((m) => Array.isArray(m.message));
    if (posts.length === 0) return [skip('the client sent no POST')];
    if (batches.length === 0) return [pass(`none of ${posts.length} POST bodies is a batch`)];
    return [
      fail(
        `${batches.length} POST bod${batches.length === 1 ? 'y is' : 'ies are'} a JSON array (a batch)`,
        'one JSON-RPC object per POST',
        batches.slice(0, 5).map(evidenceOf),
      ),
    ];
  },
});

/** Media types an Accept header lists (parameters and weights dropped). */
const mediaTypes = (accept: string) => accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());

export const ACCEPT = clientCheck({
  id: 'http.client.accept',
  title: 'Accept lists application/json and text/event-stream',
  area: 'http',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(
      SENDING,
      'The client MUST include an Accept header listing both application/json and text/event-stream as ' +
        'supported content types.',
      'MUST',
    ),
  ],
  earlier: onRevisions(
    ['2025-11-25', '2025-06-18', '2025-03-26'],
    sentence(
      'basic/transports#sending-messages-to-the-server',
      'The client MUST include an Accept header, listing both application/json and text/event-stream as ' +
        'supported content types.',
      'MUST',
    ),
  ),
  run(ctx) {
    const requests = posted(ctx.requests);
    const offenders = requests.flatMap((request) => {
      const accept = header(request, 'accept');
      const listed = accept === undefined ? [] : mediaTypes(accept);
      const ok = listed.includes('application/json') && listed.includes('text/event-stream');
      return ok
        ? []
        : [
            {
              request,
              problem: `${describeRequest(request)} sent ${accept === undefined ? 'no Accept' : `Accept: ${accept}`}`,
            },
          ];
    });
    return judgeRequests(
      requests.length,
      'the client sent no request',
      offenders,
      `all ${requests.length} POSTs accept both`,
      'Accept: application/json, text/event-stream',
    );
  },
});

const PV = 'basic/transports/streamable-http#protocol-version-header';

export const PROTOCOL_VERSION_HEADER = clientCheck({
  id: 'http.pv.header',
  title: 'Every POST carries MCP-Protocol-Version',
  area: 'http-headers',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(PV, 'Every POST request to the MCP endpoint MUST include an MCP-Protocol-Version header.', 'MUST'),
  ],
  run(ctx) {
    const requests = posted(ctx.requests);
    const offenders = requests.flatMap((request) =>
      header(request, 'mcp-protocol-version') === undefined
        ? [{ request, problem: `${describeRequest(request)} has none` }]
        : [],
    );
    return judgeRequests(
      requests.length,
      'the client sent no request',
      offenders,
      `all ${requests.length} request POSTs carry it`,
      'MCP-Protocol-Version: 2026-07-28 on every request POST',
    );
  },
});

export const PROTOCOL_VERSION_MATCH = clientCheck({
  id: 'http.pv.match',
  title: "MCP-Protocol-Version equals the body's _meta protocolVersion",
  area: 'http-headers',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(
      PV,
      'The header value MUST match the io.modelcontextprotocol/protocolVersion field carried in the request ' +
        "body's _meta.",
      'MUST',
    ),
  ],
  run(ctx) {
    const both = posted(ctx.requests).flatMap((request) => {
      const value = header(request, 'mcp-protocol-version');
      const meta = isObject(request.params._meta) ? request.params._meta[META_PROTOCOL_VERSION] : undefined;
      return value === undefined || meta === undefined ? [] : [{ request, value, meta }];
    });
    const offenders = both
      .filter((b) => b.value !== b.meta)
      .map((b) => ({
        request: b.request,
        problem: `${describeRequest(b.request)}: header ${JSON.stringify(b.value)}, body ${JSON.stringify(b.meta)}`,
      }));
    return judgeRequests(
      both.length,
      'no request carried both the header and the _meta field',
      offenders,
      `the header equals the body's version on all ${both.length} requests`,
      'the same version in the header and in _meta',
    );
  },
});

export const STANDARD_HEADERS = clientCheck({
  id: 'http.std.required',
  covers: ['http.client.metadata-headers'],
  title: 'Mcp-Method on every request, Mcp-Name on tools/call',
  area: 'http-headers',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(
      'basic/transports/streamable-http#standard-request-headers',
      'These headers are REQUIRED for compliance.',
      'REQUIRED',
    ),
    sentence(SENDING, 'The client MUST include the request metadata headers on each POST request.', 'MUST'),
  ],
  run(ctx) {
    const requests = posted(ctx.requests);
    const offenders = requests.flatMap((request) => {
      const problems: string[] = [];
      const method = header(request, 'mcp-method');
      if (method !== request.method)
        problems.push(
          method === undefined ? 'no Mcp-Method' : `Mcp-Method ${JSON.stringify(method)} for ${request.method}`,
        );
      const source = NAME_HEADER_SOURCE[request.method];
      const value = source ? request.params[source] : undefined;
      if (typeof value === 'string') {
        // How a name outside the safe set is encoded is http.std.mcp-name-base64's to judge; here, that it is there.
        const name = header(request, 'mcp-name');
        if (name === undefined) problems.push('no Mcp-Name');
        else if (isPlainHeaderSafe(value) && decoded(name) !== value)
          problems.push(`Mcp-Name ${JSON.stringify(name)} for ${JSON.stringify(value)}`);
      }
      return problems.length === 0 ? [] : [{ request, problem: `${describeRequest(request)}: ${problems.join(', ')}` }];
    });
    return judgeRequests(
      requests.length,
      'the client sent no request',
      offenders,
      `all ${requests.length} request POSTs carry Mcp-Method (and Mcp-Name where it applies)`,
      'Mcp-Method: <method> on every request; Mcp-Name: <params.name> on tools/call',
    );
  },
});

export const POST_ONLY = clientCheck({
  id: 'http.client.post',
  covers: ['http.client.post-each'],
  title: 'JSON-RPC messages are sent with POST',
  area: 'http',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(SENDING, 'The client MUST use HTTP POST to send JSON-RPC messages.', 'MUST'),
    sentence(
      SENDING,
      'Every JSON-RPC message sent from the client MUST be a new HTTP POST request to the MCP endpoint.',
      'MUST',
    ),
  ],
  run(ctx) {
    const carrying = ctx.observed.messages.filter((m) => m.http && m.message !== undefined);
    const other = ctx.observed.messages.filter((m) => m.http && m.http.method !== 'POST');
    const bad = carrying.filter((m) => m.http!.method !== 'POST');
    if (carrying.length === 0) return [skip('the client sent no JSON-RPC message')];
    const others =
      other.length > bad.length
        ? ` (${other.length - bad.length} ` +
          `${[...new Set(other.filter((m) => !bad.includes(m)).map((m) => m.http!.method))].join('/')} ` +
          `request(s) without a message, which no sentence forbids)`
        : '';
    if (bad.length === 0) return [pass(`all ${carrying.length} JSON-RPC messages came in POSTs${others}`)];
    return [
      fail(
        `${bad.length} JSON-RPC message(s) came with another HTTP method (first: ${bad[0]!.http!.method})`,
        'POST for every JSON-RPC message',
        bad.slice(0, 5).map(evidenceOf),
      ),
    ];
  },
});

export const MCP_NAME_BASE64 = clientCheck({
  id: 'http.std.mcp-name-base64',
  covers: ['enc.mcp-name-same'],
  title: 'A tool name outside the header-safe set goes into Mcp-Name Base64-encoded',
  area: 'http-headers',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(
      'basic/transports/streamable-http#standard-request-headers',
      'If the Mcp-Name source value cannot be safely represented as a plain ASCII header value, clients MUST ' +
        'encode it using the Base64 sentinel format described in Value Encoding.',
      'MUST',
    ),
  ],
  run(ctx) {
    const judged = posted(ctx.requests).filter(
      (r) =>
        r.method === 'tools/call' &&
        typeof r.params.name === 'string' &&
        !isPlainHeaderSafe(r.params.name) &&
        header(r, 'mcp-name') !== undefined,
    );
    const offenders = judged.flatMap((request) => {
      const expected = encodeHeaderValue(request.params.name as string);
      const sent = header(request, 'mcp-name')!;
      return sent === expected
        ? []
        : [
            {
              request,
              problem:
                `${describeRequest(request)}: Mcp-Name ${JSON.stringify(sent)}, expected ` +
                `${JSON.stringify(expected)}`,
            },
          ];
    });
    return judgeRequests(
      judged.length,
      `no tools/call of a tool whose name needs encoding (${TOOL.nonAsciiName}) carried Mcp-Name`,
      offenders,
      `all ${judged.length} such names went as =?base64?…?=`,
      '=?base64?{Base64 of the UTF-8 name}?=',
    );
  },
});

export const BOTH_CONTENT_TYPES = clientCheck({
  id: 'http.client.both-content-types',
  covers: ['http.sse.keepalive-comments'],
  title: 'The client reads an answer sent as an SSE stream',
  area: 'http',
  scenario: 'http',
  transport: 'http',
  sentences: [sentence(SENDING, 'The client MUST support both.', 'MUST')],
  run: (ctx) =>
    judgeDriverLine(ctx, TOOL.sseEcho, 'result', {
      afterCall: true,
      passed: `the ${TOOL.sseEcho} result sent as text/event-stream reached the driver`,
      failed:
        `the ${TOOL.sseEcho} result, sent as text/event-stream (a comment line, then the response event), ` +
        `came out as an error`,
      expected: 'the result read from the SSE stream like a JSON one',
    }),
});

export const NO_RESUME = clientCheck({
  id: 'http.sse.no-resume',
  title: 'No Last-Event-ID: streams are not resumable, not even one cut short',
  area: 'http',
  scenario: 'http',
  transport: 'http',
  sentences: [
    sentence(
      'basic/transports/streamable-http#receiving-messages',
      'Resumable SSE streams via Last-Event-ID are not supported.',
      'descriptive',
    ),
  ],
  run(ctx) {
    const sent = ctx.observed.messages.filter((m) => m.http);
    if (sent.length === 0) return [skip('the client sent no HTTP request')];
    // The stream of sse_cut_short carries event ids and ends before its response: a 2025-11-25 client resumes it (GET,
    // or POST, with Last-Event-ID); a 2026-07-28 client takes the request as failed, or sends it again as a new one.
    const cut = ctx
      .calls(TOOL.sseCutShort)
      .find((r) => r.seen.reply?.body === undefined && r.seen.answeredT !== undefined);
    const cutText = cut
      ? `the stream of ${describeRequest(cut)} carried event ids (${CUT_STREAM_EVENT_IDS.join(', ')}) and ended ` +
        `before its response`
      : `the client did not call ${TOOL.sseCutShort}, whose stream is cut short`;
    const resuming = sent.filter((m) => m.http!.headers['last-event-id'] !== undefined);
    if (resuming.length === 0)
      return [
        pass(
          `none of ${sent.length} HTTP requests carries Last-Event-ID; ${cutText}`,
          cut ? [evidenceOf(cut.seen)] : [],
        ),
      ];
    const first = resuming[0]!;
    const value = first.http!.headers['last-event-id']!;
    const issued = (CUT_STREAM_EVENT_IDS as readonly string[]).includes(value)
      ? `, an id of the stream cut short: ${cutText}`
      : '';
    return [
      fail(
        `${resuming.length} of ${sent.length} HTTP requests carry Last-Event-ID (first: ${first.http!.method} ` +
          `with ${JSON.stringify(value)}${issued})`,
        'no Last-Event-ID header: a stream cut short is lost, its request failed (descriptive text of the ' +
          'page: a deviation warns)',
        [...(cut ? [cut.seen] : []), ...resuming.slice(0, 5)].map(evidenceOf),
      ),
    ];
  },
});

export const HTTP_CHECKS: readonly ClientCheckDefinition[] = [
  POST_ONLY,
  SINGLE_MESSAGE,
  ACCEPT,
  PROTOCOL_VERSION_HEADER,
  PROTOCOL_VERSION_MATCH,
  STANDARD_HEADERS,
  MCP_NAME_BASE64,
  BOTH_CONTENT_TYPES,
  NO_RESUME,
];
