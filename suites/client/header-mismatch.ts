import {
  type ClientCheckDefinition,
  ERR,
  errorOf,
  evidenceOf,
  isObject,
  STATELESS_ERROR_CODES,
  TOOL,
} from '../kit/index.js';
import { clientCheck, describeRequest, fail, pass, sentence, skip } from './kit.js';

const TOOL_NAME = TOOL.mismatchOnce;

export const MISMATCH_REFRESH = clientCheck({
  id: 'xmcp.client.mismatch-refresh',
  title: 'After HeaderMismatch (-32020) the client lists the tools again, then retries the call',
  area: 'x-mcp-header',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [
    sentence(
      'basic/transports/streamable-http#client-behavior',
      'If the server rejects a request with a HeaderMismatch error because required Mcp-Param-* headers are ' +
        "missing or do not match the body, the client SHOULD call tools/list to check for changes to the tool's " +
        'inputSchema, then retry the original request with the appropriate headers.',
      'SHOULD',
    ),
  ],
  run(ctx) {
    const refused = ctx.calls(TOOL_NAME).find((r) => errorOf(r.seen.reply?.body)?.code === ERR.headerMismatch);
    if (!refused)
      return [skip(`the client did not call ${TOOL_NAME}, or its call was not answered with HeaderMismatch`)];
    const later = ctx.requests.filter((r) => r.seen.seq > refused.seen.seq);
    const retry = later.find((r) => r.method === 'tools/call' && r.params.name === TOOL_NAME);
    const relist = retry ? later.find((r) => r.method === 'tools/list' && r.seen.seq < retry.seen.seq) : undefined;
    const evidence = [refused, relist, retry].flatMap((r) => (r ? [evidenceOf(r.seen)] : []));
    if (relist && retry)
      return [
        pass(
          `after HeaderMismatch to ${describeRequest(refused)} the client listed the tools (` +
            `${describeRequest(relist)}) and retried (${describeRequest(retry)})`,
          evidence,
        ),
      ];
    const what = retry ? 'retried the call without listing the tools first' : 'never retried the call';
    return [
      fail(
        `after HeaderMismatch (-32020) to ${describeRequest(refused)} the client ${what}`,
        'a tools/list (the inputSchema may have changed), then the call again with the headers it asks for',
        evidence,
      ),
    ];
  },
});

export const INSPECT_400 = clientCheck({
  id: 'http.compat.inspect-400',
  title: 'A 400 answer whose body is a modern error does not send the client back to initialize',
  area: 'http',
  scenario: 'x-mcp-header',
  transport: 'http',
  sentences: [
    sentence(
      'basic/transports/streamable-http#backward-compatibility',
      'On 400 Bad Request, the client SHOULD inspect the response body before falling back',
      'SHOULD',
    ),
    sentence(
      'basic/transports/streamable-http#backward-compatibility',
      'If the body contains a recognized modern JSON-RPC error, the server speaks a modern version of MCP — ' +
        'retry using the advertised supported versions or correct the request, rather than falling back.',
      'descriptive',
    ),
  ],
  run(ctx) {
    const error400 = ctx.requests.find(
      (r) => r.seen.reply?.status === 400 && STATELESS_ERROR_CODES.has(errorOf(r.seen.reply.body)?.code as number),
    );
    if (!error400)
      return [
        skip(
          'no request of the client was answered 400 with a modern error (HeaderMismatch comes from the first ' +
            'call of header_mismatch_once)',
        ),
      ];
    const code = errorOf(error400.seen.reply!.body)?.code;
    const fallback = ctx.observed.messages.find(
      (m) => m.seq > error400.seen.seq && isObject(m.message) && m.message.method === 'initialize',
    );
    if (!fallback)
      return [
        pass(
          `after 400 with the modern error ${String(code)} to ${describeRequest(error400)} the client did not ` +
            `fall back to initialize`,
          [evidenceOf(error400.seen)],
        ),
      ];
    return [
      fail(
        `after 400 with the modern error ${String(code)} to ${describeRequest(error400)}, the client sent ` +
          `initialize (message #${fallback.seq}): it fell back to the initialize era although the body shows a ` +
          `modern server`,
        'no initialize: a recognized modern error in the body means the server speaks a modern version',
        [evidenceOf(error400.seen), evidenceOf(fallback)],
      ),
    ];
  },
});

export const HEADER_MISMATCH_CHECKS: readonly ClientCheckDefinition[] = [MISMATCH_REFRESH, INSPECT_400];
