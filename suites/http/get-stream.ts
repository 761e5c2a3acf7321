import { defineCheck } from '../kit/define-check.js';
import type { CheckDefinition } from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { perRevision, STREAMABLE_HTTP_SESSION_REVISIONS } from '../kit/same-sentences.js';
import { responseMediaType } from '../kit/response-headers.js';

const LISTENING = 'basic/transports#listening-for-messages-from-the-server';
/** Bad Gateway, Service Unavailable, Gateway Timeout: answers of the way to the server as much as of the server. */
const UNAVAILABLE = new Set([502, 503, 504]);

/**
 * http.get-stream: the audit's own handshake opens the GET stream right after initialize (McpClient.openServerStream,
 * with the session id and Accept listing text/event-stream); its answer is judged here, once every other check is done,
 * since a server may hold the headers back until it has something to send. A second GET is not sent: a server may allow
 * one stream per session (and answer another with 409).
 */
export const getStream: CheckDefinition = defineCheck({
  id: 'http.get-stream',
  title: 'A GET to the MCP endpoint is answered with Content-Type: text/event-stream, or with 405 Method Not Allowed',
  area: 'http',
  sentences: perRevision(STREAMABLE_HTTP_SESSION_REVISIONS, () => [
    {
      ref: LISTENING,
      text:
        'The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else ' +
        'return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this ' +
        'endpoint.',
      keyword: 'MUST',
    },
  ]),
  needs: ['live', 'http'],
  phase: 'final',
  run(ctx) {
    const get = ctx.client.serverStreamAnswer();
    if (!get) return [skip('the audit opened no GET stream on this connection')];
    if (get.status === undefined) {
      return [
        skip(
          get.failure
            ? `the GET got no HTTP answer (${get.failure.message})`
            : 'the GET had no answer headers by the end of the audit (a server may hold them back until it has ' +
                'something to send)',
        ),
      ];
    }
    const type = responseMediaType(get);
    if (type === 'text/event-stream')
      return [
        pass(
          `the GET was answered HTTP ${get.status} with Content-Type: text/event-stream: the server offers an ` +
            `SSE stream`,
          [get],
        ),
      ];
    if (get.status === 405)
      return [
        pass('the GET was answered 405 Method Not Allowed: the server offers no SSE stream at this endpoint', [get]),
      ];
    if (get.status === 429)
      return [skip('the GET was answered 429 Too Many Requests: rate-limited, so it says nothing of the stream')];
    if (UNAVAILABLE.has(get.status))
      return [
        skip(
          `the GET was answered HTTP ${get.status}, which a gateway in front of the server may give for a ` +
            `moment: it says nothing of the stream`,
        ),
      ];
    return [
      fail(
        `the GET to the MCP endpoint (its Accept listing text/event-stream) was answered HTTP ${get.status}` +
          `${type === '' ? ' without a Content-Type' : ` with Content-Type: ${type}`}`,
        'Content-Type: text/event-stream (an SSE stream), or HTTP 405 Method Not Allowed (no SSE stream at ' +
          'this endpoint)',
        [get],
      ),
    ];
  },
});

export const GET_STREAM_CHECKS = [getStream] as const;
