import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, type Exchange, isObject, methodOf, type SpecSentence } from '../kit/index.js';
import { judgeEach } from '../kit/judge-each.js';
import { responseMediaType } from '../kit/response-headers.js';

const ALLOWED = ['application/json', 'text/event-stream'];

const isJsonRpcRequest = (message: unknown) =>
  isObject(message) &&
  message.jsonrpc === '2.0' &&
  typeof message.method === 'string' &&
  (typeof message.id === 'string' || typeof message.id === 'number');

/** Streamable HTTP of 2025-06-18 and 2025-11-25. */
const INITIALIZE_SENTENCE: SpecSentence = {
  ref: 'basic/transports#sending-messages-to-the-server',
  text:
    'If the input is a JSON-RPC _request_, the server MUST either return Content-Type: text/event-stream, to ' +
    'initiate an SSE stream, or Content-Type: application/json, to return one JSON object.',
  keyword: 'MUST',
};

export const requestResponseContentType: CheckDefinition = defineCheck({
  id: 'http.req.content-type',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/transports/streamable-http#sending-messages',
        text:
          'If the body is a JSON-RPC _request_, the server MUST return either Content-Type: application/json (a ' +
          'single JSON object) or Content-Type: text/event-stream (an SSE response stream).',
        keyword: 'MUST',
      },
    ],
    '2025-11-25': [INITIALIZE_SENTENCE],
    '2025-06-18': [INITIALIZE_SENTENCE],
    '2025-03-26': [
      {
        ref: INITIALIZE_SENTENCE.ref,
        text:
          'If the input contains any number of JSON-RPC _requests_, the server MUST either return Content-Type: ' +
          'text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON ' +
          'object.',
        keyword: 'MUST',
      },
    ],
    // 2024-11-05 has no Streamable HTTP: its HTTP+SSE transport answers on the SSE stream.
  },
  title: 'A JSON-RPC answer to a request comes as application/json or text/event-stream',
  area: 'http-headers',
  needs: ['http'],
  phase: 'final',
  run(ctx) {
    // Only bodies that were JSON-RPC messages are judged: an empty body or a non-JSON page (from a proxy in front of
    // the server, or a 403 for a foreign Origin, whose body the spec leaves open) says nothing about the labelling.
    const label = (e: Exchange) =>
      `${methodOf(e)} → HTTP ${e.status} ${e.responseHeaders?.['content-type'] ?? '(no Content-Type)'}`;
    return judgeEach(
      ctx.exchanges().filter((e) => e.status !== undefined && isJsonRpcRequest(e.request) && e.response !== undefined),
      {
        none: 'no request was answered with a JSON-RPC message',
        isBad: (e) => !ALLOWED.includes(responseMediaType(e)),
        pass: (all) => `all ${all.length} JSON-RPC answers were labelled application/json or text/event-stream`,
        fail: (wrong, all) =>
          `${wrong.length} of ${all.length} JSON-RPC answers had another Content-Type: ` +
          `${[...new Set(wrong.map(label))].slice(0, 5).join('; ')}`,
        expected:
          'Content-Type: application/json (one JSON object) or text/event-stream (an SSE stream), on errors too',
        evidence: (e) => e,
      },
    );
  },
});
