import { randomBytes } from 'node:crypto';
import { ErrorCode } from '../constants.js';
import { notification } from '../messages.js';
import { defineDefects } from './define.js';
import { headerTool } from './extra-tools.js';

/** Header-names-case-sensitive's reading: an MCP header counts only when its name is spelled as the spec spells it. */
const CANONICAL_MCP_NAME = /^(?:MCP-Protocol-Version|Mcp-Method|Mcp-Name|Mcp-Param-[A-Z][^]*)$/;
function canonicallySpelled(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (/^mcp-/i.test(name) && !CANONICAL_MCP_NAME.test(name)) continue;
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${raw[i + 1]!}` : raw[i + 1]!;
  }
  return headers;
}

/** Defects that the checks of suites/http/ catch, each breaking one of them. */
export const HTTP_DEFECTS = defineDefects([
  {
    name: 'session-id-not-visible-ascii',
    breaks: 'http.session.id-visible-ascii',
    description:
      'a Streamable HTTP session of an initialize revision is assigned an id with spaces in it ("mtc session ' +
      '<uuid>"), outside the visible ASCII the id must keep to',
    revision: '2025-06-18',
    transports: ['http'],
    at: { httpSessionId: (minted) => `mtc session ${minted}` },
  },
  {
    name: 'get-stream-json',
    breaks: 'http.get-stream',
    description:
      'a GET to the Streamable HTTP endpoint of an initialize revision is answered 200 with Content-Type: ' +
      'application/json and the body {}, neither an SSE stream nor 405',
    transports: ['http'],
    revision: '2025-03-26',
    at: { httpMethodNotAllowed: ({ method, sessions }) => (sessions && method === 'GET' ? {} : undefined) },
  },
  {
    name: 'accepted-202-as-200',
    breaks: 'http.accepted-202',
    description:
      'a POST of a single notification or response (notifications/initialized, for one) is accepted with 200 ' +
      'OK and no body instead of 202 Accepted',
    transports: ['http'],
    revision: '2025-06-18',
    at: {
      httpRules: (rules) => {
        rules.acceptedStatus = 200;
      },
    },
  },
  {
    name: 'ended-session-404-served',
    breaks: 'http.ended-session-404',
    description:
      'a DELETE naming a Streamable HTTP session is accepted with 200, but the session is kept and served on: ' +
      'requests naming it never get 404',
    transports: ['http'],
    revision: '2025-11-25',
    at: {
      httpRules: (rules) => {
        rules.deleteEndsSession = false;
      },
    },
  },
  {
    name: 'xmcp-sensitive',
    breaks: 'xmcp.server.no-sensitive',
    description: 'lists an extra tool with x-mcp-header on an api_key parameter',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ api_key: { type: 'string', 'x-mcp-header': 'Api-Key' } }));
      },
    },
  },
  {
    name: 'protocol-header-optional',
    breaks: 'http.pv.missing-reject',
    description: 'serves requests without MCP-Protocol-Version (compares it with the body only when present)',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.protocolVersion.required = false;
      },
    },
  },
  {
    name: 'protocol-header-mismatch-ignored',
    breaks: 'http.pv.mismatch',
    description: 'requires MCP-Protocol-Version but does not compare it with the body version',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.protocolVersion.comparedWithBody = false;
      },
    },
  },
  {
    name: 'method-header-optional',
    breaks: 'http.validate.missing-std',
    description: 'serves requests without Mcp-Method (compares it with the body only when present)',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.method.required = false;
      },
    },
  },
  {
    name: 'method-header-mismatch-ignored',
    breaks: 'http.validate.mismatch',
    description: 'requires Mcp-Method but does not compare it with the body method',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.method.comparedWithBody = false;
      },
    },
  },
  {
    name: 'unknown-method-200',
    breaks: 'http.method-not-found',
    description: 'the -32601 for an unknown method comes with HTTP 200',
    transports: ['http'],
    at: { errorStatus: (code) => (code === ErrorCode.MethodNotFound ? 200 : undefined) },
  },
  {
    name: 'get-allowed',
    breaks: 'http.compat.get-delete-405',
    description: 'answers GET and DELETE on the MCP endpoint with 200 and the JSON body {}',
    transports: ['http'],
    at: { httpMethodNotAllowed: ({ method }) => (method === 'GET' || method === 'DELETE' ? {} : undefined) },
  },
  {
    name: 'session-minted',
    breaks: 'http.compat.ignore-session',
    description: 'every HTTP response carries a random Mcp-Session-Id header',
    transports: ['http'],
    at: {
      httpResponseHeaders: (headers) => {
        headers['Mcp-Session-Id'] = randomBytes(16).toString('hex');
      },
    },
  },
  {
    name: 'param-header-always-rejected',
    breaks: 'xmcp.server.validate-present',
    description: 'any tools/call carrying Mcp-Param-Region is rejected with 400 -32020, even a correct one',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.param.refused = true;
      },
    },
  },
  {
    name: 'param-header-not-required',
    breaks: 'xmcp.server.reject-missing',
    description: 'a tools/call whose region argument is set but lacks Mcp-Param-Region is served',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.param.required = false;
      },
    },
  },
  {
    name: 'param-header-not-compared',
    breaks: 'xmcp.server.validate',
    description: 'Mcp-Param-Region is not compared with the region argument',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.param.comparedWithBody = false;
      },
    },
  },
  {
    name: 'param-header-no-base64',
    breaks: 'enc.server.decode',
    description: 'Mcp-Param-Region is compared without decoding the =?base64?…?= form',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.param.base64Decoded = false;
      },
    },
  },
  {
    name: 'name-header-optional',
    breaks: 'http.validate.missing-std',
    description: 'a tools/call without Mcp-Name is served',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.name.required = false;
      },
    },
  },
  {
    name: 'name-header-mismatch-ignored',
    breaks: 'http.validate.mismatch',
    description: 'Mcp-Name must be present but is not compared with params.name',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.name.comparedWithBody = false;
      },
    },
  },
  {
    name: 'list-changed-on-list-stream',
    breaks: 'http.sse.related',
    description:
      'tools/list answers with an SSE stream that carries notifications/tools/list_changed before the result',
    transports: ['http'],
    at: {
      requestAnswered: ({ method, transport, before }) => {
        if (method === 'tools/list' && transport === 'http')
          before.unshift(notification('notifications/tools/list_changed', {}));
      },
    },
  },
  {
    name: 'no-origin-check',
    breaks: 'http.origin.validate',
    description: 'serves requests whatever their Origin header says',
    transports: ['http'],
    at: {
      httpRules: (rules) => {
        rules.foreignOriginRefused = false;
      },
    },
  },
  {
    name: 'origin-rejected-400',
    breaks: 'http.origin.403',
    description: 'rejects a foreign Origin with 400 instead of 403',
    transports: ['http'],
    at: {
      httpRules: (rules) => {
        rules.foreignOriginStatus = 400;
      },
    },
  },
  {
    name: 'error-as-text-plain',
    breaks: 'http.req.content-type',
    description: 'JSON-RPC error responses (the JSON body unchanged) are labelled Content-Type: text/plain',
    transports: ['http'],
    at: {
      httpJsonHeaders: (headers, message) => {
        if ('error' in message) headers['Content-Type'] = 'text/plain; charset=utf-8';
      },
    },
  },
  {
    name: 'param-header-expected-for-null',
    breaks: 'xmcp.server.no-expect-null-or-absent',
    description:
      'a tools/call whose x-mcp-header argument is null gets 400/-32020 unless it carries that Mcp-Param-* header',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.param.requiredForNull = true;
      },
    },
  },
  {
    name: 'param-header-chars-unchecked',
    breaks: 'xmcp.server.reject-invalid-chars',
    description:
      'Mcp-Param-* values are compared as Node reads them (bytes as ISO-8859-1) without rejecting characters ' +
      'outside visible ASCII, space and tab',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.param.charsChecked = false;
      },
    },
  },
  {
    name: 'header-names-case-sensitive',
    breaks: 'http.hdr.name-ci',
    description:
      'an MCP header counts only when its name is spelled MCP-Protocol-Version, Mcp-Method, Mcp-Name or ' +
      'Mcp-Param-<Capitalised>; mcp-method or MCP-METHOD is as good as missing (400/-32020)',
    transports: ['http'],
    at: { httpRequestHeaders: canonicallySpelled },
  },
  {
    name: 'no-x-accel-buffering',
    breaks: 'http.sse.x-accel',
    description:
      'responses that start an SSE stream (subscriptions/listen, a tools/call streaming log messages) carry no ' +
      'X-Accel-Buffering header',
    transports: ['http'],
    at: {
      httpSseHeaders: (headers) => {
        delete headers['X-Accel-Buffering'];
      },
    },
  },
  {
    name: 'last-event-id-rejected',
    breaks: 'http.compat.ignore-last-event-id',
    description:
      'a POST carrying a Last-Event-ID header is answered 400 with -32600 ("names no stream to resume") ' +
      'instead of being served',
    transports: ['http'],
    at: {
      httpPostRefusal: (headers) => {
        const lastEventId = headers['last-event-id'];
        if (lastEventId === undefined) return undefined;
        return {
          status: 400,
          error: { code: -32600, message: `Last-Event-ID ${String(lastEventId)} names no stream to resume` },
        };
      },
    },
  },
  {
    name: 'method-header-case-insensitive',
    breaks: 'http.hdr.value-cs',
    description:
      'Mcp-Method is compared with the body method case-insensitively: tools/list sent with Mcp-Method: ' +
      'TOOLS/LIST is served',
    transports: ['http'],
    at: {
      headerRules: (rules) => {
        rules.method.anyCase = true;
      },
    },
  },
]);
