import {
  type ClientCheckContext,
  type ClientCheckDefinition,
  decodeHeaderValue,
  encodeHeaderValue,
  evidenceOf,
  mirroredHeaderAnnotations,
  INVALID_HEADER_TOOLS,
  isPlainHeaderSafe,
  type Outcome,
  type SeenRequest,
  type SpecSentence,
  TOOL,
  valueAtPath,
} from '../kit/index.js';
import { clientCheck, describeRequest, fail, judgeRequests, sentence, skip } from './kit.js';

const SCHEMA_EXTENSION = 'basic/transports/streamable-http#schema-extension';
const ENCODING = 'basic/transports/streamable-http#value-encoding';
const CUSTOM = 'basic/transports/streamable-http#server-behavior-for-custom-headers';

/** One annotated parameter of one tools/call: the value the client sent for it and the header it sent, if any. */
interface Mirrored {
  request: SeenRequest;
  header: string;
  value: unknown;
  sent: string | undefined;
}

/**
 * Every annotated parameter of every tools/call of a valid annotated tool, judged against the arguments actually sent.
 */
function mirrored(ctx: ClientCheckContext): Mirrored[] {
  return ctx.requests.flatMap((request) => {
    const name = request.params.name;
    if (
      request.method !== 'tools/call' ||
      request.seen.http?.method !== 'POST' ||
      typeof name !== 'string' ||
      INVALID_HEADER_TOOLS.includes(name)
    )
      return [];
    const tool = ctx.observed.offered[name];
    if (!tool) return [];
    return mirroredHeaderAnnotations(tool.inputSchema).map(({ path, name: headerName }) => {
      const value = valueAtPath(request.params.arguments, path);
      const header = `Mcp-Param-${headerName}`;
      return { request, header, value, sent: request.seen.http?.headers[header.toLowerCase()] };
    });
  });
}

const called = (ctx: ClientCheckContext) =>
  ctx.requests.some(
    (r) =>
      r.method === 'tools/call' &&
      typeof r.params.name === 'string' &&
      mirroredHeaderAnnotations(ctx.observed.offered[r.params.name]?.inputSchema).length > 0,
  );
const none = 'the client called no tool with x-mcp-header annotations';
/** Why nothing was judged: the tool that offers the case was not called, or its call held no such value. */
const notCalled = (ctx: ClientCheckContext, tool: string, otherwise: string) =>
  ctx.calls(tool).length === 0 ? `the client did not call ${tool}, the tool that offers this case` : otherwise;
const show = (m: Mirrored) =>
  `${describeRequest(m.request)}: ${m.header} ${m.sent === undefined ? 'absent' : JSON.stringify(m.sent)} for ` +
  `${JSON.stringify(m.value)}`;

/** What a header value reads as once a server has decoded it (undefined: a sentinel that does not decode). */
function decoded(sent: string): string | undefined {
  try {
    return decodeHeaderValue(sent);
  } catch {
    return undefined;
  }
}

/**
 * Header values against what the page writes for them (`plain`): exactly that; Base64-wrapped although the value is
 * header-safe, which decodes to it (over-encoded); or anything else (an offender).
 */
function sortSent(
  judged: readonly Mirrored[],
  plain: (m: Mirrored) => string,
): { offenders: { request: SeenRequest; problem: string }[]; overEncoded: Mirrored[] } {
  const offenders: { request: SeenRequest; problem: string }[] = [];
  const overEncoded: Mirrored[] = [];
  for (const m of judged) {
    const expected = plain(m);
    if (m.sent === expected) continue;
    if (m.sent !== undefined && decoded(m.sent) === expected) overEncoded.push(m);
    else
      offenders.push({
        request: m.request,
        problem: `${show(m)}${m.sent === undefined ? '' : ` (expected ${JSON.stringify(expected)})`}`,
      });
  }
  return { offenders, overEncoded };
}

const SERVERS_DECODE =
  'servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it to the corresponding ' +
  'request body value';

/**
 * Header-safe values sent Base64-wrapped: they decode to the right value, and servers must decode before comparing, so
 * no MUST is broken; the page writes them plain, which is what this warning rests on.
 */
function overEncodedWarning(
  overEncoded: readonly Mirrored[],
  rest: SpecSentence,
  plain: (m: Mirrored) => string,
): Outcome {
  const shown = overEncoded.slice(0, 5).map((m) => `${show(m)}, which decodes to ${JSON.stringify(plain(m))}`);
  const requests = [...new Set(overEncoded.map((m) => m.request))];
  return {
    ...fail(
      `${overEncoded.length} header-safe value(s) went Base64-encoded: ${shown.join('; ')}` +
        `${overEncoded.length > 5 ? '; …' : ''}. Servers decode before comparing ("${SERVERS_DECODE}", Value ` +
        `Encoding), so the header still matches the body; the page writes such a value plain`,
      `the plain value (${overEncoded
        .slice(0, 3)
        .map((m) => `${m.header}: ${plain(m)}`)
        .join(', ')}); =?base64?…?= only for values that cannot go plain`,
      requests.slice(0, 5).map((r) => evidenceOf(r.seen)),
    ),
    sentence: rest,
  };
}

/** The usual verdict on the offenders, and a warning for over-encoded values besides (or instead of a pass). */
function withOverEncoding(
  verdict: Outcome[],
  overEncoded: readonly Mirrored[],
  rest: SpecSentence,
  plain: (m: Mirrored) => string,
): Outcome[] {
  if (overEncoded.length === 0) return verdict;
  const warning = overEncodedWarning(overEncoded, rest, plain);
  return verdict.some((o) => o.status === 'fail') ? [...verdict, warning] : [warning];
}

const PLAIN_EXAMPLE = sentence(
  'server/tools#x-mcp-header',
  'In this example, when the tool is called with "region": "us-west1", the client adds the header ' +
    'Mcp-Param-Region: us-west1 to the HTTP request.',
  'descriptive',
);

export const MIRROR = clientCheck({
  id: 'xmcp.client.mirror',
  covers: ['xmcp.client.support', 'xmcp.client.include-present', 'xmcp.client.procedure', 'xmcp.extract'],
  title: 'Annotated parameter values are mirrored into Mcp-Param-* headers',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [
    sentence(
      'basic/transports/streamable-http#custom-headers-from-tool-parameters',
      "When a server's tool definition includes x-mcp-header annotations, conforming clients MUST mirror the " +
        'designated parameter values into HTTP headers.',
      'MUST',
    ),
    sentence(CUSTOM, 'Client MUST include the header', 'MUST'),
    PLAIN_EXAMPLE,
  ],
  run(ctx) {
    if (!called(ctx)) return [skip(none)];
    const present = mirrored(ctx).filter((m) => m.value !== null && m.value !== undefined);
    // Here: that the header is there, and that a header-safe string decodes to the value. How other values are
    // written is judged by the encoding checks (enc.client.base64, enc.client.sentinel-collision, enc.type-conversion).
    const absent = present.filter((m) => m.sent === undefined);
    const { offenders, overEncoded } = sortSent(
      present.filter((m) => m.sent !== undefined && typeof m.value === 'string' && isPlainHeaderSafe(m.value)),
      (m) => m.value as string,
    );
    const verdict = judgeRequests(
      present.length,
      'no annotated parameter had a value in the calls made',
      [...absent.map((m) => ({ request: m.request, problem: show(m) })), ...offenders],
      `all ${present.length} annotated values with a value were mirrored`,
      'Mcp-Param-{Name} for every annotated parameter present in the arguments, decoding to its value',
    );
    return withOverEncoding(verdict, overEncoded, PLAIN_EXAMPLE, (m) => m.value as string);
  },
});

export const OMIT_NULL = clientCheck({
  id: 'xmcp.client.omit-null',
  title: 'No Mcp-Param-* header for a null or absent parameter',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [sentence(CUSTOM, 'Client MUST omit the header', 'MUST')],
  run(ctx) {
    if (!called(ctx)) return [skip(none)];
    const empty = mirrored(ctx).filter((m) => m.value === null || m.value === undefined);
    const offenders = empty.filter((m) => m.sent !== undefined).map((m) => ({ request: m.request, problem: show(m) }));
    return judgeRequests(
      empty.length,
      notCalled(ctx, TOOL.headerNull, 'no annotated parameter was null or absent in the calls made'),
      offenders,
      `no header for ${empty.length} null or absent annotated parameter(s)`,
      'no Mcp-Param-{Name} header when the value is null or not in the arguments',
    );
  },
});

/** Encoding verdicts over the headers that were sent, for the values `pick` selects. */
function encodingCheck(pick: (value: string) => boolean) {
  return (ctx: ClientCheckContext) => {
    if (!called(ctx)) return [skip(none)];
    const judged = mirrored(ctx).filter((m) => typeof m.value === 'string' && m.sent !== undefined && pick(m.value));
    const offenders = judged
      .filter((m) => m.sent !== encodeHeaderValue(m.value as string))
      .map((m) => ({
        request: m.request,
        problem: `${show(m)} (expected ${JSON.stringify(encodeHeaderValue(m.value as string))})`,
      }));
    return { judged, offenders };
  };
}

const looksLikeSentinel = (v: string) => v.startsWith('=?base64?') && v.endsWith('?=');

export const BASE64 = clientCheck({
  id: 'enc.client.base64',
  covers: ['enc.client.must-encode', 'enc.sentinel-case'],
  title: 'Values that are not plain ASCII are sent as =?base64?…?=',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [
    sentence(
      ENCODING,
      'When a value cannot be safely represented as a plain ASCII header value (e.g., it contains non-ASCII ' +
        'characters, control characters, or has leading/trailing whitespace), clients MUST use Base64 encoding ' +
        'of the UTF-8 representation with the following format:',
      'MUST',
    ),
  ],
  run(ctx) {
    const found = encodingCheck((v) => !isPlainHeaderSafe(v) && !looksLikeSentinel(v))(ctx);
    if (Array.isArray(found)) return found;
    return judgeRequests(
      found.judged.length,
      notCalled(ctx, TOOL.headerEncoded, 'no value needing Base64 was mirrored'),
      found.offenders,
      `all ${found.judged.length} values needing it were Base64-encoded exactly`,
      '=?base64?{Base64 of the UTF-8 bytes, standard alphabet with padding}?=',
    );
  },
});

export const SENTINEL_COLLISION = clientCheck({
  id: 'enc.client.sentinel-collision',
  title: 'A plain value that looks like the sentinel is Base64-encoded too',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [
    sentence(
      ENCODING,
      'To avoid ambiguity, clients MUST also Base64-encode any plain-ASCII value that matches the sentinel ' +
        'pattern (i.e., starts with =?base64? and ends with ?=).',
      'MUST',
    ),
  ],
  run(ctx) {
    const found = encodingCheck(looksLikeSentinel)(ctx);
    if (Array.isArray(found)) return found;
    return judgeRequests(
      found.judged.length,
      notCalled(ctx, TOOL.headerSentinel, 'no sentinel-looking value was mirrored'),
      found.offenders,
      'the sentinel-looking value was Base64-encoded',
      '=?base64?…?= around the Base64 of the literal value',
    );
  },
});

const CONVERSION = sentence(
  ENCODING,
  'integer: Convert to decimal string representation (e.g., 42, -7) … boolean: Convert to lowercase "true" or "false"',
  'descriptive',
);

export const TYPE_CONVERSION = clientCheck({
  id: 'enc.type-conversion',
  title: 'Integers are written in decimal, booleans as true/false',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  // The conversion is described in Value Encoding; the MUST that binds it is the client procedure's step 4.
  sentences: [
    sentence(
      'basic/transports/streamable-http#client-behavior',
      'When constructing a tools/call request via HTTP transport, the client MUST:',
      'MUST',
    ),
    sentence(
      'basic/transports/streamable-http#client-behavior',
      'Encode the values according to the Value Encoding rules.',
      'descriptive',
    ),
    CONVERSION,
  ],
  run(ctx) {
    if (!called(ctx)) return [skip(none)];
    const judged = mirrored(ctx).filter(
      (m) => m.sent !== undefined && (typeof m.value === 'boolean' || Number.isInteger(m.value)),
    );
    // The conversion is judged on the value a server reads, after decoding; a Base64 wrapper around it only warns.
    const { offenders, overEncoded } = sortSent(judged, (m) => String(m.value));
    const verdict = judgeRequests(
      judged.length,
      'no integer or boolean value was mirrored',
      offenders,
      `all ${judged.length} integer and boolean values were written as the page shows`,
      'decimal integers (42, -7); lowercase true/false',
    );
    return withOverEncoding(verdict, overEncoded, CONVERSION, (m) => String(m.value));
  },
});

export const EXCLUDE_INVALID = clientCheck({
  id: 'xmcp.client.exclude',
  covers: ['xmcp.client.reject-invalid'],
  title: 'Tools with an invalid x-mcp-header are left out (never called)',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [
    sentence(
      SCHEMA_EXTENSION,
      'Rejection means the client MUST exclude the invalid tool from the result of tools/list.',
      'MUST',
    ),
    sentence(
      SCHEMA_EXTENSION,
      'Clients using the Streamable HTTP transport MUST reject tool definitions where any x-mcp-header value ' +
        'violates these constraints.',
      'MUST',
    ),
  ],
  run(ctx) {
    const calls = ctx.requests.filter((r) => r.method === 'tools/call');
    const offenders = calls
      .filter((r) => INVALID_HEADER_TOOLS.includes(String(r.params.name)))
      .map((request) => ({ request, problem: `${describeRequest(request)} called a tool it must have left out` }));
    const judged = calls.length === 0 ? 0 : INVALID_HEADER_TOOLS.length;
    return judgeRequests(
      judged,
      'the client called no tool, so what it left out cannot be told',
      offenders,
      `none of the ${INVALID_HEADER_TOOLS.length} tools with invalid annotations (` +
        `${INVALID_HEADER_TOOLS.join(', ')}) was called`,
      `${INVALID_HEADER_TOOLS.join(', ')} excluded from the listing, so never called`,
    );
  },
});

export const X_MCP_HEADER_CHECKS: readonly ClientCheckDefinition[] = [
  MIRROR,
  OMIT_NULL,
  BASE64,
  SENTINEL_COLLISION,
  TYPE_CONVERSION,
  EXCLUDE_INVALID,
];
