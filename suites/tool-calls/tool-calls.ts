import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  ERR,
  errorOf,
  type Exchange,
  META_PROTOCOL_VERSION,
  LATEST_REVISION,
  type Outcome,
  resultOf,
  type SpecSentence,
} from '../kit/index.js';
import { requestMeta } from '../kit/notifications-seen.js';
import { listedTools } from '../kit/listed-tools.js';
import { sendProbes } from '../kit/probe-order.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { findingErrors } from './error-sentences.js';

const answer = (e: Exchange) => {
  const error = errorOf(e.response);
  if (error) return `error ${String(error.code)}`;
  const result = resultOf(e.response);
  if (result) return result.isError === true ? 'a result with isError: true' : 'a result';
  return e.failure?.message ?? 'no answer';
};

/**
 * A name the server does not list: a made-up one, and a case-swapped listed name when one is safe to try and the
 * revision makes tool names case-sensitive.
 */
async function unknownNames(ctx: CheckContext, caseSensitive: boolean): Promise<{ name: string; why: string }[]> {
  const tools = await listedTools(ctx);
  const listed = new Set(tools.map((t) => t.tool.name));
  const names = [{ name: 'mtc_no_such_tool_5f3a9c', why: 'a name the server does not list' }];
  if (!caseSensitive) return names;
  // A server that ignored case would RUN the original tool, so only a tool we may call is case-swapped.
  const swappable = tools.find(
    (t) =>
      typeof t.tool.name === 'string' &&
      ctx.mayCall(t.tool) &&
      !listed.has(swapCase(t.tool.name)) &&
      swapCase(t.tool.name) !== t.tool.name,
  );
  if (swappable)
    names.push({
      name: swapCase(swappable.tool.name as string),
      why: `the case-swapped name of ${swappable.tool.name as string}`,
    });
  return names;
}

/**
 * What makes a case-swapped name an unknown one: a rule since 2025-11-25 only, so the case-swapped call is sent only
 * there.
 */
const CASE_SENSITIVE: SpecSentence = {
  ref: 'server/tools#tool-names',
  text: 'Tool names SHOULD be considered case-sensitive.',
  keyword: 'SHOULD',
};

/**
 * The initialize revisions' tools page, § Error Handling: an unknown tool is a protocol error (the same words in each).
 */
const UNKNOWN_TOOLS: SpecSentence = {
  ref: 'server/tools#error-handling',
  text: 'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools',
  keyword: 'descriptive',
};

/** Before 2025-11-25 the tools page lists invalid arguments, not malformed requests, among protocol errors. */
const INVALID_ARGUMENTS: SpecSentence = {
  ref: 'server/tools#error-handling',
  text: 'Protocol Errors: Standard JSON-RPC errors for issues like: … Invalid arguments',
  keyword: 'descriptive',
};

/** What the message adds when a server answers a protocol error with a result: the spec only describes the error. */
const ONLY_DESCRIBED =
  'many SDKs (e.g. the official TypeScript SDK v1 McpServer) answer this way; server/tools § Error Handling ' +
  'describes a JSON-RPC error here (a protocol error) but does not require one with a BCP 14 keyword';

function swapCase(name: string): string {
  return [...name].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

export const unknownTool: CheckDefinition = defineCheck({
  id: 'tools.err.unknown-tool',
  covers: ['tools.err.finding-errors', 'tools.name.case-sensitive'],
  title:
    'Calling a tool the server does not list gets a JSON-RPC error, as the spec describes, rather than a ' +
    'result (tool names are case-sensitive)',
  area: 'tool-calls',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/tools#error-handling',
        text:
          'Protocol Errors indicate issues with the request structure itself that models are less likely to be ' +
          'able to fix: Unknown tool … They are returned as standard JSON-RPC errors',
        keyword: 'descriptive',
      },
      findingErrors('2026-07-28'),
      CASE_SENSITIVE,
    ],
    '2025-11-25': [UNKNOWN_TOOLS, findingErrors('2025-11-25'), CASE_SENSITIVE],
    '2025-06-18': [UNKNOWN_TOOLS, findingErrors('2025-06-18')],
    '2025-03-26': [UNKNOWN_TOOLS, findingErrors('2025-03-26')],
    '2024-11-05': [UNKNOWN_TOOLS, findingErrors('2024-11-05')],
  },
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    const probes: { name: string; why: string; exchange: Exchange }[] = [];
    const caseSensitive = (unknownTool.sentences[ctx.revision] ?? []).includes(CASE_SENSITIVE);
    probes.push(
      ...(await sendProbes(ctx, await unknownNames(ctx, caseSensitive), async (u) => ({
        ...u,
        exchange: await ctx.client.request('tools/call', { name: u.name, arguments: {} }, { anyConnection: true }),
      }))),
    );
    const results = probes.filter((p) => !errorOf(p.exchange.response));
    if (results.length > 0) {
      const isError = results.some((p) => resultOf(p.exchange.response)?.isError === true);
      return [
        fail(
          String(
            results
              .map((p) => `tools/call of ${JSON.stringify(p.name)} (${p.why}) got ${answer(p.exchange)}`)
              .join('; '),
          ) + `${isError ? `; ${ONLY_DESCRIBED}` : ''}`,
          'a JSON-RPC error (the spec example uses -32602): the spec describes an unknown tool as a protocol ' +
            'error, not a tool execution error',
          results.map((p) => p.exchange),
        ),
      ];
    }
    const codes = probes.map((p) => `${p.why} → ${String(errorOf(p.exchange.response)!.code)}`);
    const odd = probes.some((p) => errorOf(p.exchange.response)!.code !== ERR.invalidParams);
    return [
      pass(
        `unknown tools were rejected with JSON-RPC errors (${codes.join('; ')})` +
          `${odd ? '; the spec example uses -32602' : ''}`,
        probes.map((p) => p.exchange),
      ),
    ];
  },
});

export const malformedCall: CheckDefinition = defineCheck({
  id: 'tools.err.protocol-errors',
  title:
    'tools/call params that break the CallToolRequest schema get a JSON-RPC error (-32602), as the spec ' +
    'describes, rather than a result',
  area: 'tool-calls',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/tools#error-handling',
        text:
          'Protocol Errors indicate issues with the request structure itself that models are less likely to be ' +
          'able to fix: … Malformed requests (requests that fail to satisfy CallToolRequest schema) … They are ' +
          'returned as standard JSON-RPC errors',
        keyword: 'descriptive',
      },
      findingErrors('2026-07-28'),
    ],
    '2025-11-25': [
      {
        ref: 'server/tools#error-handling',
        text:
          'Protocol Errors: Standard JSON-RPC errors for issues like: … Malformed requests (requests that fail ' +
          'to satisfy CallToolRequest schema)',
        keyword: 'descriptive',
      },
      findingErrors('2025-11-25'),
    ],
    '2025-06-18': [INVALID_ARGUMENTS, findingErrors('2025-06-18')],
    '2025-03-26': [INVALID_ARGUMENTS, findingErrors('2025-03-26')],
    '2024-11-05': [INVALID_ARGUMENTS, findingErrors('2024-11-05')],
  },
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    const tools = await listedTools(ctx);
    const callable = tools.find((t) => typeof t.tool.name === 'string' && ctx.mayCall(t.tool));
    const cases: { label: string; params: Record<string, unknown> }[] = [
      { label: 'no name', params: { arguments: {} } },
      { label: 'a numeric name', params: { name: 42, arguments: {} } },
    ];
    if (callable) {
      const name = callable.tool.name as string;
      cases.push(
        { label: `arguments as an array (${name})`, params: { name, arguments: [] } },
        { label: `arguments as a string (${name})`, params: { name, arguments: 'x' } },
        { label: `arguments null (${name})`, params: { name, arguments: null } },
      );
    }
    const probes: { label: string; exchange: Exchange }[] = [];
    probes.push(
      ...(await sendProbes(ctx, cases, async (c) => ({
        label: c.label,
        exchange: await ctx.client.request('tools/call', c.params, { anyConnection: true }),
      }))),
    );
    const wrong = probes.filter((p) => !errorOf(p.exchange.response));
    const limited = callable ? '' : ` (arguments faults not sent: no tool may be called; ${ctx.callPolicy})`;
    if (wrong.length > 0) {
      const isError = wrong.some((w) => resultOf(w.exchange.response)?.isError === true);
      return [
        fail(
          `malformed tools/call accepted: ${wrong.map((w) => `${w.label} → ${answer(w.exchange)}`).join('; ')}` +
            `${limited}${isError ? `; ${ONLY_DESCRIBED}` : ''}`,
          'a JSON-RPC error, -32602 (Invalid params), for params that break the CallToolRequest schema (a ' +
            'string name and, when present, object arguments), which the tools page counts among protocol errors',
          wrong.map((w) => w.exchange),
        ),
      ];
    }
    const odd = probes.filter((p) => errorOf(p.exchange.response)!.code !== ERR.invalidParams);
    const codes = odd.length
      ? `; codes other than -32602: ` +
        `${odd.map((o) => `${o.label} → ${String(errorOf(o.exchange.response)!.code)}`).join(', ')}`
      : '';
    return [
      pass(
        `${probes.length} malformed calls were rejected with JSON-RPC errors${codes}${limited}`,
        probes.map((p) => p.exchange),
      ),
    ];
  },
});

/** Every JSON-RPC error the server sent during the run. */
function errorCodes(ctx: CheckContext): { code: number; exchange: Exchange }[] {
  return ctx.exchanges().flatMap((exchange) => {
    const code = errorOf(exchange.response)?.code;
    return typeof code === 'number' ? [{ code, exchange }] : [];
  });
}

const JSON_RPC_CODES: ReadonlySet<number> = new Set([
  ERR.parse,
  ERR.invalidRequest,
  ERR.methodNotFound,
  ERR.invalidParams,
  ERR.internal,
]);

/** The version the request asked for, in `_meta` and (over HTTP) in MCP-Protocol-Version, when both name it. */
function askedVersion(exchange: Exchange, transport: string): string | undefined {
  const meta = requestMeta(exchange);
  const body = meta[META_PROTOCOL_VERSION];
  if (typeof body !== 'string') return undefined;
  if (transport !== 'http') return body;
  const header = Object.entries(exchange.requestHeaders ?? {}).find(
    ([name]) => name.toLowerCase() === 'mcp-protocol-version',
  )?.[1];
  return header === body ? body : undefined;
}

/** -32020 over stdio (there are no headers to mismatch), or -32022 for a request that asked for the served version. */
export function misusedMcpCode(code: number, exchange: Exchange, transport: string): boolean {
  if (code === ERR.headerMismatch) return transport === 'stdio';
  if (code === ERR.unsupportedVersion) return askedVersion(exchange, transport) === LATEST_REVISION;
  return false;
}

function codePolicy(options: {
  id: string;
  title: string;
  /** The 2026-07-28 sentences (basic/index § Error Codes); 2025-11-25 partitions no code range. */
  sentences: readonly SpecSentence[];
  bad(code: number, exchange: Exchange, transport: string): boolean;
  expected: string;
}): CheckDefinition {
  return defineCheck({
    id: options.id,
    title: options.title,
    specRef: 'basic/index#error-codes',
    area: 'tool-calls',
    sentences: { '2026-07-28': options.sentences },
    phase: 'final',
    run(ctx): Outcome[] {
      const errors = errorCodes(ctx);
      if (errors.length === 0) return [skip('the server sent no JSON-RPC error during the run')];
      const bad = errors.filter((e) => options.bad(e.code, e.exchange, ctx.transportKind));
      if (bad.length === 0) return [pass(`${errors.length} error responses, none with such a code`)];
      return [
        fail(
          `the server sent ${[...new Set(bad.map((b) => b.code))].join(', ')} (${bad.length} time(s))`,
          options.expected,
          [note('codes seen', [...new Set(errors.map((e) => e.code))]), ...bad.slice(0, 3).map((b) => b.exchange)],
        ),
      ];
    },
  });
}

export const ERROR_CODE_CHECKS = [
  codePolicy({
    id: 'err.retired',
    title: 'No retired error codes (-32002 resource not found, -32042 URL elicitation required)',
    sentences: [
      {
        ref: 'basic/index#error-codes',
        text:
          'Implementations of this protocol version MUST NOT emit these codes: -32002 — resource not found ' +
          '(2025-11-25 and earlier; replaced by -32602). … -32042 — URL elicitation required (2025-11-25 only).',
        keyword: 'MUST NOT',
      },
    ],
    bad: (c) => c === -32002 || c === -32042,
    expected: '2026-07-28 implementations never emit -32002 (now -32602) or -32042',
  }),
  codePolicy({
    id: 'err.reserved.only-defined',
    title: 'No undefined codes from the MCP-reserved range -32099…-32020',
    sentences: [
      {
        ref: 'basic/index#error-codes',
        text:
          '-32020 to -32099 — reserved for the MCP specification. … Implementations MUST NOT emit any code from ' +
          'this sub-range that is not defined by this specification',
        keyword: 'MUST NOT',
      },
    ],
    bad: (c) => c >= -32099 && c <= -32020 && ![-32020, -32021, -32022].includes(c),
    expected: 'only -32020, -32021 and -32022 from -32099…-32020',
  }),
  codePolicy({
    id: 'err.reserved.meaning',
    title:
      'MCP error codes only with their meanings: -32020 (HeaderMismatch) never over stdio, -32022 never for ' +
      'the version the server serves',
    sentences: [
      {
        ref: 'basic/index#error-codes',
        text:
          'Implementations MUST NOT emit any code from this sub-range that is not defined by this specification ' +
          'and MUST use defined codes only with their specified meanings.',
        keyword: 'MUST',
      },
    ],
    bad: misusedMcpCode,
    expected:
      '-32020 only for an HTTP header that does not match the body (stdio has no headers); -32022 only for a ' +
      'protocol version the server does not support',
  }),
  codePolicy({
    id: 'err.app-codes-outside',
    title: 'Application error codes lie outside the JSON-RPC reserved range -32768…-32000',
    sentences: [
      {
        ref: 'basic/index#error-codes',
        text:
          'New error codes for purposes not defined by this specification SHOULD be allocated outside the ' +
          'JSON-RPC reserved range (-32768 to -32000); the remainder of the integer space is available for ' +
          'application-defined errors.',
        keyword: 'SHOULD',
      },
    ],
    // -32099…-32000 are judged by err.reserved.only-defined and err.legacy.should-not-use.
    bad: (c) => c >= -32768 && c <= -32100 && !JSON_RPC_CODES.has(c),
    expected: 'JSON-RPC 2.0 codes (-32700, -32600…-32603), MCP codes, or application codes outside -32768…-32000',
  }),
  codePolicy({
    id: 'err.legacy.should-not-use',
    title: 'No codes from the legacy range -32019…-32000 (including pre-release -32001, -32003, -32004)',
    sentences: [
      {
        ref: 'basic/index#error-codes',
        text: '-32000 to -32019 — legacy. … new implementations SHOULD NOT use codes from this sub-range at all.',
        keyword: 'SHOULD NOT',
      },
    ],
    bad: (c) => c >= -32019 && c <= -32000 && c !== -32002 /* reported by err.retired */,
    expected:
      'codes outside -32019…-32000; the pre-release HeaderMismatch/MissingCapability/UnsupportedVersion codes ' +
      'are now -32020/-32021/-32022',
  }),
];

export const TOOL_CALL_CHECKS = [unknownTool, malformedCall, ...ERROR_CODE_CHECKS] as const;
