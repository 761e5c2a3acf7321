import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  ERR,
  type Exchange,
  isInitializeRevision,
  isObject,
  validateWire,
  type Revision,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';

const RESULT_SAME_ID = {
  ref: 'basic/index#result-responses',
  text: 'Result responses MUST include the same ID as the request they correspond to.',
  keyword: 'MUST',
} as const;
const ERROR_SAME_ID = {
  ref: 'basic/index#error-responses',
  text:
    'Error responses MUST include the same ID as the request they correspond to (except in error cases where ' +
    'the ID could not be read due a malformed request).',
  keyword: 'MUST',
} as const;

/**
 * Before 2025-11-25 one sentence covers results and errors alike, with no exception for a request that could not be
 * read.
 */
const RESPONSE_SAME_ID = {
  ref: 'basic/index#responses',
  text: 'Responses MUST include the same ID as the request they correspond to.',
  keyword: 'MUST',
} as const;
const RESPONSE_SAME_ID_2024 = { ...RESPONSE_SAME_ID, ref: 'basic/messages#responses' } as const;

const HTTP_FORBIDDEN = 403;

/** Errors that say the request itself could not be read: JSON-RPC 2.0 answers them with a null id. */
const UNREADABLE_REQUEST_CODES: ReadonlySet<number> = new Set([ERR.parse, ERR.invalidRequest]);

/** The same id, and the same JSON type: 1 and "1" are different ids. */
function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

/** A header of the request, by its name in any letter case. */
function requestHeader(exchange: Exchange, name: string): string | undefined {
  return Object.entries(exchange.requestHeaders ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * An HTTP request refused for its standard headers alone (a probe of ours): an MCP-Protocol-Version naming another
 * revision than the one agreed, and on 2026-07-28 a missing MCP-Protocol-Version or Mcp-Method (or Mcp-Name, on a
 * request whose Mcp-Method is tools/call). The transport may refuse it with 400 before it reads the message, so its id,
 * like a malformed request's, may not be read. A header that disagrees with the body is not among them: telling that
 * takes reading the body, id included.
 */
function headerFault(exchange: Exchange, agreed: Revision): boolean {
  if (exchange.requestHeaders === undefined) return false;
  const version = requestHeader(exchange, 'mcp-protocol-version');
  if (version !== undefined && version !== agreed) return true;
  if (isInitializeRevision(agreed)) return false;
  const method = requestHeader(exchange, 'mcp-method');
  return (
    version === undefined ||
    method === undefined ||
    (method === 'tools/call' && requestHeader(exchange, 'mcp-name') === undefined)
  );
}

/**
 * What is wrong with the id of this exchange's response, if anything. Only a request we sent well-formed counts: a
 * malformed probe (or a parse error, an invalid request) may be answered with a null id, as the sentence allows from
 * 2025-11-25 on (and JSON-RPC 2.0, which every revision requires, before: "If there was an error in detecting the id
 * in the Request object (e.g. Parse error/Invalid Request), it MUST be Null").
 */
export function idProblem(exchange: Exchange, wellFormed: (exchange: Exchange) => boolean): string | undefined {
  const request = exchange.request;
  const response = exchange.response;
  if (!isObject(request) || !('id' in request) || !isObject(response) || !('id' in response)) return undefined;
  if (sameId(response.id, request.id)) return undefined;
  const shown = `${JSON.stringify(response.id)} for request id ${JSON.stringify(request.id)}`;
  if ('result' in response) return `a result carries id ${shown}`;
  if (!('error' in response) || !wellFormed(exchange)) return undefined;
  const code = isObject(response.error) ? response.error.code : undefined;
  if (response.id === null && typeof code === 'number' && UNREADABLE_REQUEST_CODES.has(code)) return undefined;
  // Streamable HTTP: a 403 for a bad Origin "MAY comprise a JSON-RPC error response that has no id".
  if (response.id === null && exchange.status === HTTP_FORBIDDEN) return undefined;
  return `an error (code ${JSON.stringify(code)}) carries id ${shown}, though the request was well-formed`;
}

/**
 * Ids no other request uses: a string, and a string of digits that a careless server turns into a number (one the
 * audit's numbered requests never reach, so such an answer is not taken for a second answer to one of them).
 */
export const STRING_ID_PROBES: readonly string[] = ['mcp-tools-conformance-id', '900000007'];

export const stringIds: CheckDefinition = defineCheck({
  id: 'base.id.same.string',
  covers: ['base.res.same-id'],
  title: 'A request with a string id (also one of digits) is answered under that same string',
  area: 'wire',
  sentences: {
    '2026-07-28': [RESULT_SAME_ID],
    '2025-11-25': [RESULT_SAME_ID],
    '2025-06-18': [RESPONSE_SAME_ID],
    '2025-03-26': [RESPONSE_SAME_ID],
    '2024-11-05': [RESPONSE_SAME_ID_2024],
  },
  needs: ['live'],
  // One request in flight: an answer under another id is then still tied to its request.
  phase: 'serial',
  async run(ctx) {
    const sent: Exchange[] = [];
    for (const id of STRING_ID_PROBES) sent.push(await ctx.client.request('tools/list', {}, { id, probe: true }));
    const answered = sent.filter((e) => isObject(e.response) && 'id' in e.response);
    if (answered.length === 0)
      return [skip(`neither tools/list with a string id was answered (${sent[0]!.failure?.message ?? 'no response'})`)];
    const bad = answered.filter(
      (e) => !sameId((e.response as { id?: unknown }).id, (e.request as { id?: unknown }).id),
    );
    if (bad.length === 0)
      return [
        pass(
          `tools/list with ids ${STRING_ID_PROBES.map((id) => JSON.stringify(id)).join(' and ')} answered ` +
            `under the same strings`,
          sent,
        ),
      ];
    const first = bad[0]!;
    return [
      fail(
        `tools/list with id ${JSON.stringify((first.request as { id?: unknown }).id)} was answered with id ` +
          `${JSON.stringify((first.response as { id?: unknown }).id)}`,
        'the id exactly as sent: a string stays a string, even one of digits',
        bad,
      ),
    ];
  },
});

export const responseIds: CheckDefinition = defineCheck({
  id: 'base.id.same',
  covers: ['base.res.same-id', 'base.err.same-id'],
  title:
    'Every response carries the id of its request, with the same JSON type (null only for a request that could ' +
    'not be read)',
  area: 'wire',
  sentences: {
    '2026-07-28': [ERROR_SAME_ID, RESULT_SAME_ID],
    '2025-11-25': [ERROR_SAME_ID, RESULT_SAME_ID],
    '2025-06-18': [RESPONSE_SAME_ID],
    '2025-03-26': [RESPONSE_SAME_ID],
    '2024-11-05': [RESPONSE_SAME_ID_2024],
  },
  phase: 'final',
  run(ctx) {
    // The string-id probes are base.id.same.string's to judge.
    const probe = (e: Exchange) => isObject(e.request) && STRING_ID_PROBES.includes(e.request.id as string);
    const answered = ctx
      .exchanges()
      .filter((e) => isObject(e.response) && isObject(e.request) && 'id' in e.request && !probe(e));
    if (answered.length === 0) return [skip('no request of the audit was answered')];
    const wire = ctx.revision;
    const wellFormed = (e: Exchange) =>
      wire !== null && validateWire('JSONRPCRequest', wire, e.request).length === 0 && !headerFault(e, wire);
    const bad = answered.flatMap((e) => {
      const problem = idProblem(e, wellFormed);
      return problem ? [{ e, problem }] : [];
    });
    if (bad.length === 0)
      return [pass(`${answered.length} responses of the audit each carry their request's id, with the same JSON type`)];
    return [
      fail(
        `${bad.length} of ${answered.length} responses do not carry their request's id: ${bad[0]!.problem}`,
        "each response's id equal to its request's id, with the same JSON type (null only when the request " +
          'could not be read: a parse error or an invalid request)',
        bad.slice(0, 5).map((b) => b.e),
      ),
    ];
  },
});
