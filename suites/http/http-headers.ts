import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  ERR,
  errorOf,
  type Exchange,
  LATEST_INITIALIZE_REVISION,
  LATEST_REVISION,
  type Outcome,
  resultOf,
  sampleArguments,
  type SpecSentences,
} from '../kit/index.js';
import { listedTools } from '../kit/listed-tools.js';
import { fail, pass, skip } from '../kit/outcome.js';

const SPEC = 'basic/transports/streamable-http';

const describe = (e: Exchange) => {
  const error = errorOf(e.response);
  const body = error
    ? `error ${String(error.code)}`
    : resultOf(e.response)
      ? 'a result'
      : e.failure
        ? e.failure.message
        : 'no JSON-RPC body';
  return `HTTP ${e.status ?? '—'} with ${body}`;
};

/** A labelled probe; `unclear` says why its answer cannot be judged (then it is left out of the verdict). */
type Probe = [string, Exchange, unclear?: (e: Exchange) => string | undefined];

/** One probe, one expected (status, code) pair. */
function headerProbe(options: {
  id: string;
  sentences: SpecSentences;
  title: string;
  specRef: string;
  covers?: string[];
  expectStatus: number;
  expectCode: number;
  /** Another answer a second MUST of the same section asks for when the probe meets it too, and why. */
  alsoRight?: { status: number; code: number; why: string };
  what: string;
  /** One probe, or several that must all be rejected alike (labelled for the message). */
  send(ctx: CheckContext): Promise<Exchange | Probe[]>;
  skipIf?(ctx: CheckContext): Promise<string | undefined>;
  /**
   * Asked only when probes were answered otherwise (`wrong`): why the rule does not bind this server, if it does not.
   */
  excusedIf?(ctx: CheckContext, wrong: readonly Exchange[]): Promise<string | undefined>;
}): CheckDefinition {
  return defineCheck({
    id: options.id,
    sentences: options.sentences,
    title: options.title,
    specRef: options.specRef,
    ...(options.covers ? { covers: options.covers } : {}),
    area: 'http-headers',
    needs: ['live', 'http'],
    phase: 'serial',
    async run(ctx): Promise<Outcome[]> {
      const reason = await options.skipIf?.(ctx);
      if (reason) return [skip(reason)];
      const sent = await options.send(ctx);
      const all: Probe[] = Array.isArray(sent) ? sent : [[options.what, sent]];
      const unclear = all.flatMap(([what, e, why]) =>
        why?.(e) ? [`${what}: ${describe(e)}, not judged: ${why(e)!}`] : [],
      );
      const probes = all.filter(([, e, why]) => !why?.(e));
      const text = (list: Probe[]) => [...list.map(([what, e]) => `${what}: ${describe(e)}`), ...unclear].join('; ');
      if (probes.length === 0) return [skip(unclear.join('; '))];
      const answers = (e: Exchange, status: number, code: number) =>
        e.status === status && errorOf(e.response)?.code === code;
      const also = options.alsoRight;
      const alsoRight = (e: Exchange) => also !== undefined && answers(e, also.status, also.code);
      const wrong = probes.filter(([, e]) => !answers(e, options.expectStatus, options.expectCode) && !alsoRight(e));
      if (wrong.length === 0) {
        const other = probes.some(([, e]) => alsoRight(e)) ? ` (${also!.why})` : '';
        return [
          pass(
            `${text(probes)}${other}`,
            probes.map(([, e]) => e),
          ),
        ];
      }
      const excuse = await options.excusedIf?.(
        ctx,
        wrong.map(([, e]) => e),
      );
      if (excuse) return [skip(`${text(wrong)}, not judged: ${excuse}`)];
      const expected =
        `HTTP ${options.expectStatus} with JSON-RPC error ${options.expectCode}` +
        `${also ? `, or HTTP ${also.status} with JSON-RPC error ${also.code} (${also.why})` : ''}`;
      return [
        fail(
          text(wrong),
          expected,
          wrong.map(([, e]) => e),
        ),
      ];
    },
  });
}

const list = (ctx: CheckContext, headers: Record<string, string | null>) =>
  ctx.client.request('tools/list', {}, { headers });

/** The revision whose clients send no MCP-Protocol-Version (2025-06-18 added the header). */
const HEADERLESS_REVISION = '2025-03-26';

const methodMismatchProbe = (ctx: CheckContext) =>
  ctx.memo('mcp-method-mismatch-probe', () => list(ctx, { 'Mcp-Method': 'server/discover' }));

const UNLISTED = 'mtc_no_such_tool_5f3a9c';

interface CallTarget {
  name: string;
  args: Record<string, unknown>;
  /** How the probe is labelled in messages. */
  label: string;
  /** Unlisted names only: a -32602 may be the tool lookup answering before the headers were looked at. */
  unclear?: (e: Exchange) => string | undefined;
}

/**
 * The tools/call that carries a header fault. A listed tool with arguments its inputSchema accepts makes the verdict
 * independent of the order in which a server validates headers and looks up the tool; a defective server would run
 * it, so only a tool the call policy allows is used. Otherwise an unlisted name, which nothing can execute.
 */
function callTarget(ctx: CheckContext): Promise<CallTarget> {
  return ctx.memo('std-header-call-target', async () => {
    for (const t of await listedTools(ctx)) {
      if (typeof t.tool.name !== 'string' || !ctx.mayCall(t.tool)) continue;
      const sample = sampleArguments(t.tool.inputSchema);
      if (sample.ok)
        return { name: t.tool.name, args: sample.value, label: `tools/call of the listed tool ${t.tool.name}` };
    }
    return {
      name: UNLISTED,
      args: {},
      label:
        `tools/call of the unlisted name ${UNLISTED} (no listed tool that may be called has arguments we can ` +
        `generate; ${ctx.callPolicy})`,
      unclear: (e) =>
        errorOf(e.response)?.code === ERR.invalidParams
          ? 'an unlisted tool name, and -32602 can be the tool lookup answering before the headers are validated'
          : undefined,
    };
  });
}

async function callProbe(ctx: CheckContext, headers: Record<string, string | null>, fault: string): Promise<Probe> {
  const target = await callTarget(ctx);
  const exchange = await ctx.client.request(
    'tools/call',
    { name: target.name, arguments: target.args },
    { headers, anyConnection: true },
  );
  return [`${target.label} ${fault}`, exchange, target.unclear];
}

const SERVER_VALIDATION_400 = {
  ref: `${SPEC}#server-validation`,
  text:
    'When rejecting a request due to header validation failure, servers MUST return HTTP status 400 Bad Request ' +
    'and MUST include a JSON-RPC error response using the following error code:',
  keyword: 'MUST',
} as const;

export const HTTP_HEADER_CHECKS = [
  headerProbe({
    id: 'http.pv.missing-reject',
    sentences: {
      '2026-07-28': [
        {
          ref: `${SPEC}#protocol-version-header`,
          text:
            'A server that does not support such clients MUST reject a request without the header per Server ' +
            'Validation.',
          keyword: 'MUST',
        },
        SERVER_VALIDATION_400,
      ],
    },
    title: 'A request without MCP-Protocol-Version is rejected with 400 and -32020',
    specRef: `${SPEC}#protocol-version-header`,
    covers: ['http.pv.header'],
    expectStatus: 400,
    expectCode: ERR.headerMismatch,
    what: 'tools/list without MCP-Protocol-Version',
    send: (ctx) => list(ctx, { 'MCP-Protocol-Version': null }),
    async skipIf(ctx) {
      const discover = resultOf((await ctx.discover()).response);
      const versions = Array.isArray(discover?.supportedVersions) ? discover!.supportedVersions : [];
      return versions.includes('2025-03-26')
        ? 'the server supports 2025-03-26 clients, which MAY omit the header'
        : undefined;
    },
    // A server may list only 2026-07-28 in its DiscoverResult and still take older clients through initialize
    // (the Python SDK 2.3 does): such a server "MAY treat a request that omits the header as protocol version
    // 2025-03-26".
    excusedIf: async (ctx) =>
      (await agreedInitializeVersion(ctx, HEADERLESS_REVISION)) === HEADERLESS_REVISION
        ? `the server supports ${HEADERLESS_REVISION} clients (an initialize offering ${HEADERLESS_REVISION} was ` +
          `answered with it), and "A server that supports clients implementing protocol versions earlier than ` +
          `2025-06-18 … MAY treat a request that omits the header as protocol version 2025-03-26"`
        : undefined,
  }),
  headerProbe({
    id: 'http.pv.mismatch',
    sentences: {
      '2026-07-28': [
        {
          ref: `${SPEC}#protocol-version-header`,
          text:
            'If the values do not match, the server MUST reject the request with 400 Bad Request and a ' +
            'HeaderMismatch JSON-RPC error (see Server Validation).',
          keyword: 'MUST',
        },
        {
          ref: `${SPEC}#protocol-version-header`,
          text:
            'If the server does not implement the requested protocol version (whether the version is unknown to ' +
            'the server, or is a known version the server has chosen not to support), it MUST respond with 400 ' +
            'Bad Request and an UnsupportedProtocolVersionError listing its supported versions.',
          keyword: 'MUST',
        },
      ],
    },
    title:
      'MCP-Protocol-Version different from the body version is rejected with 400 and -32020 (or -32022 when ' +
      'the header names a version the server does not implement)',
    specRef: `${SPEC}#protocol-version-header`,
    covers: ['http.pv.match'],
    expectStatus: 400,
    expectCode: ERR.headerMismatch,
    what: `tools/list with header ${LATEST_INITIALIZE_REVISION} and body ${LATEST_REVISION}`,
    // The header names a version the server may not implement, which the next MUST of the section answers with 400 and
    // -32022: the probe meets both sentences, and either answer keeps one of them.
    alsoRight: {
      status: 400,
      code: ERR.unsupportedVersion,
      why:
        `the header names ${LATEST_INITIALIZE_REVISION}, and "If the server does not implement the requested ` +
        `protocol version …, it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError"`,
    },
    send: (ctx) => list(ctx, { 'MCP-Protocol-Version': LATEST_INITIALIZE_REVISION }),
    // A server that also speaks 2025-11-25 may take the header's version and refuse the request by that revision's
    // rules (the Python SDK 2.3 answers 400 for the missing session): refused with 400, but without HeaderMismatch.
    excusedIf: async (ctx, wrong) =>
      wrong.every((e) => e.status === 400) && (await agreedInitializeVersion(ctx)) === LATEST_INITIALIZE_REVISION
        ? `the server also speaks ${LATEST_INITIALIZE_REVISION} (an initialize offering it was answered with ` +
          `it), whose rules the header names; it refused the request with 400, and ${LATEST_INITIALIZE_REVISION} ` +
          `has no HeaderMismatch`
        : undefined,
  }),
  headerProbe({
    id: 'http.validate.missing-std',
    sentences: {
      '2026-07-28': [
        SERVER_VALIDATION_400,
        {
          ref: `${SPEC}#server-validation`,
          text:
            'Validation failure conditions include: A required standard header (MCP-Protocol-Version, ' +
            'Mcp-Method, Mcp-Name) is missing.',
          keyword: 'descriptive',
        },
        {
          ref: `${SPEC}#standard-request-headers`,
          text: 'These headers are REQUIRED for compliance.',
          keyword: 'REQUIRED',
        },
      ],
    },
    title: 'A request without Mcp-Method (or a tools/call without Mcp-Name) is rejected with 400 and -32020',
    specRef: `${SPEC}#server-validation`,
    covers: ['http.std.required'],
    expectStatus: 400,
    expectCode: ERR.headerMismatch,
    what: 'requests missing a standard header',
    send: async (ctx) => [
      ['tools/list without Mcp-Method', await list(ctx, { 'Mcp-Method': null })],
      await callProbe(ctx, { 'Mcp-Name': null }, 'without Mcp-Name'),
    ],
  }),
  headerProbe({
    id: 'http.validate.mismatch',
    sentences: {
      '2026-07-28': [
        {
          ref: `${SPEC}#server-validation`,
          text:
            'Servers that process the request body MUST reject requests where the values specified in the ' +
            'headers do not match the corresponding values in the request body.',
          keyword: 'MUST',
        },
        SERVER_VALIDATION_400,
      ],
    },
    title: 'Mcp-Method or Mcp-Name different from the body is rejected with 400 and -32020',
    specRef: `${SPEC}#server-validation`,
    covers: ['http.validate.400-32020'],
    expectStatus: 400,
    expectCode: ERR.headerMismatch,
    what: 'requests whose standard header disagrees with the body',
    send: async (ctx) => [
      ['tools/list sent with Mcp-Method: server/discover', await methodMismatchProbe(ctx)],
      await callProbe(ctx, { 'Mcp-Name': 'mtc_other_name' }, 'sent with Mcp-Name: mtc_other_name'),
    ],
  }),
  headerProbe({
    id: 'http.method-not-found',
    sentences: {
      '2026-07-28': [
        {
          ref: `${SPEC}#protocol-version-header`,
          text:
            'If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and ' +
            'a JSON-RPC error with code -32601 (Method not found).',
          keyword: 'MUST',
        },
      ],
    },
    title: 'An unknown method is answered with 404 and -32601',
    specRef: `${SPEC}#protocol-version-header`,
    expectStatus: 404,
    expectCode: ERR.methodNotFound,
    what: 'the unknown method tools/bogus',
    send: (ctx) => ctx.client.request('tools/bogus'),
  }),
];

const COMPAT = `${SPEC}#earlier-streamable-http-revisions`;
const ONLY_THIS_REVISION =
  'A server that supports only this revision and receives such traffic from an older client SHOULD respond as follows:';

/**
 * The compatibility sentences are about "a server that supports only this revision": one that also speaks an older
 * revision implements that revision's behaviour (sessions, GET streams) instead. Discovery may list only 2026-07-28
 * while the server still accepts an older handshake, so an `initialize` is tried too, on a connection of its own.
 */
function otherRevisions(ctx: CheckContext): Promise<string | undefined> {
  return ctx.memo('other-revisions', async () => {
    const discover = resultOf((await ctx.discover()).response);
    const versions = Array.isArray(discover?.supportedVersions) ? discover!.supportedVersions : [];
    const others = versions.filter((v): v is string => typeof v === 'string' && v !== LATEST_REVISION);
    if (others.length > 0)
      return (
        `the server supports other revisions too (DiscoverResult.supportedVersions lists ${others.join(', ')}` +
        `); ${ONLY_THIS}`
      );
    const agreed = await agreedInitializeVersion(ctx);
    return agreed
      ? `the server supports an older revision too (initialize with protocolVersion ${LATEST_INITIALIZE_REVISION}` +
          ` got an InitializeResult for ${agreed}); ${ONLY_THIS}`
      : undefined;
  });
}

const ONLY_THIS = 'the sentence is about "a server that supports only this revision"';

/**
 * The protocolVersion an `initialize` offering `revision` (by default the newest initialize revision) was answered
 * with, if it was; asked once per revision, on a connection of its own.
 */
function agreedInitializeVersion(
  ctx: CheckContext,
  revision: string = LATEST_INITIALIZE_REVISION,
): Promise<string | undefined> {
  return ctx.memo(`initialize-handshake-${revision}`, async () => {
    if (!ctx.canOpenConnections) return undefined;
    try {
      const client = await ctx.anotherConnection({ negotiate: false });
      const id = client.newId();
      const params = { protocolVersion: revision, capabilities: {}, clientInfo: { ...client.clientInfo } };
      const result = resultOf((await client.raw({ jsonrpc: '2.0', id, method: 'initialize', params }, id)).response);
      return typeof result?.protocolVersion === 'string' && result.protocolVersion !== LATEST_REVISION
        ? result.protocolVersion
        : undefined;
    } catch {
      return undefined;
    }
  });
}

export const getDelete405: CheckDefinition = defineCheck({
  id: 'http.compat.get-delete-405',
  sentences: {
    '2026-07-28': [
      {
        ref: COMPAT,
        text: `${ONLY_THIS_REVISION} … HTTP GET or DELETE to the MCP endpoint: respond with 405 Method Not Allowed.`,
        keyword: 'SHOULD',
      },
    ],
  },
  title: 'A server that supports only 2026-07-28 answers GET and DELETE on the MCP endpoint with 405',
  area: 'http-headers',
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const others = await otherRevisions(ctx);
    if (others) return [skip(others)];
    const get = await ctx.client.probeMethod('GET', { Accept: 'text/event-stream' });
    if (!get) return [skip('this transport cannot send GET or DELETE')];
    const exchanges = [get, (await ctx.client.probeMethod('DELETE'))!];
    const wrong = exchanges.filter((e) => e.status !== 405);
    if (wrong.length === 0) return [pass('GET and DELETE were answered with 405', exchanges)];
    return [
      fail(
        wrong
          .map(
            (e) =>
              `${(e.request as { httpMethod: string }).httpMethod} → ` +
              `${e.status === undefined ? e.failure?.message : `HTTP ${e.status}`}`,
          )
          .join('; '),
        '405 Method Not Allowed (recommended for a server that supports only 2026-07-28: it has no GET stream ' +
          'and no session to delete)',
        exchanges,
      ),
    ];
  },
});

export const ignoreSession: CheckDefinition = defineCheck({
  id: 'http.compat.ignore-session',
  sentences: {
    '2026-07-28': [
      {
        ref: COMPAT,
        text:
          `${ONLY_THIS_REVISION} … An Mcp-Session-Id header on a request: ignore it, and do not mint or echo ` +
          `session IDs.`,
        keyword: 'SHOULD',
      },
    ],
  },
  title:
    'A server that supports only 2026-07-28 ignores Mcp-Session-Id on a request, and mints or echoes no session id',
  area: 'http-headers',
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const others = await otherRevisions(ctx);
    if (others) return [skip(others)];
    const probe = await list(ctx, { 'Mcp-Session-Id': 'mtc-probe-0123456789abcdef' });
    const problems: string[] = [];
    if (!resultOf(probe.response))
      problems.push(`tools/list carrying Mcp-Session-Id was not served (${describe(probe)})`);
    const minted = ctx.exchanges().filter((e) => e.responseHeaders?.['mcp-session-id'] !== undefined);
    if (minted.length > 0) problems.push(`${minted.length} response(s) carried an Mcp-Session-Id header`);
    if (problems.length === 0)
      return [pass('a request with Mcp-Session-Id was served normally; no response carried a session id', [probe])];
    return [
      fail(
        problems.join('; '),
        'recommended for a server that supports only 2026-07-28: ignore Mcp-Session-Id, and do not mint or ' +
          'echo session ids',
        [probe, ...minted.slice(0, 2)],
      ),
    ];
  },
});

/** How an answer reads for comparison: the HTTP status, and a result or the JSON-RPC error code. */
const answerShape = (e: Exchange) => {
  const error = errorOf(e.response);
  return (
    `${e.status ?? '—'} ` +
    `${resultOf(e.response) ? 'result' : error ? `error ${String(error.code)}` : (e.failure?.kind ?? 'none')}`
  );
};

/**
 * http.compat.ignore-last-event-id: the same tools/list twice, back to back, the second with Last-Event-ID: 1. Ignoring
 * the header means answering both alike: the same HTTP status, a result both times. (What a resumption would look
 * like to a 2025-11-25 server — a GET with Last-Event-ID — is covered by the GET rule of http.compat.get-delete-405.)
 */
export const ignoreLastEventId: CheckDefinition = defineCheck({
  id: 'http.compat.ignore-last-event-id',
  sentences: {
    '2026-07-28': [
      {
        ref: COMPAT,
        text: `${ONLY_THIS_REVISION} … A Last-Event-ID header: ignore it; streams are not resumable.`,
        keyword: 'SHOULD',
      },
    ],
  },
  title: 'A server that supports only 2026-07-28 ignores Last-Event-ID on a request',
  area: 'http-headers',
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const others = await otherRevisions(ctx);
    if (others) return [skip(others)];
    const plain = await list(ctx, {});
    if (!resultOf(plain.response))
      return [
        skip(
          `tools/list without Last-Event-ID was not served (${describe(plain)}), so nothing shows what the ` +
            `header changes`,
        ),
      ];
    const probe = await list(ctx, { 'Last-Event-ID': '1' });
    if (resultOf(probe.response) && answerShape(probe) === answerShape(plain)) {
      return [
        pass(`tools/list was served alike with and without Last-Event-ID: 1 (${describe(plain)})`, [plain, probe]),
      ];
    }
    return [
      fail(
        `tools/list without Last-Event-ID: ${describe(plain)}; the same with Last-Event-ID: 1: ${describe(probe)}`,
        'recommended for a server that supports only 2026-07-28: ignore Last-Event-ID (streams are not ' +
          'resumable) and serve the request as without it',
        [plain, probe],
      ),
    ];
  },
});

const served = (e: Exchange) => resultOf(e.response) !== undefined && (e.status ?? 200) < 400;

/**
 * http.hdr.value-cs: tools/list with Mcp-Method: TOOLS/LIST (the right method name, another case). Values are
 * case-sensitive, so the header does not match the body and is rejected like any mismatch (400 with -32020); a
 * server that serves it compares the value case-insensitively. The sentence describes and requires nothing by itself,
 * so this warns at most. A server that serves even Mcp-Method: server/discover does not compare the value at all:
 * http.validate.mismatch says so, and this check skips.
 */
export const headerValueCase: CheckDefinition = defineCheck({
  id: 'http.hdr.value-cs',
  sentences: {
    '2026-07-28': [
      {
        ref: `${SPEC}#case-sensitivity`,
        text: 'Header _values_ (such as method names) are case-sensitive.',
        keyword: 'descriptive',
      },
    ],
  },
  title: 'Mcp-Method is compared case-sensitively: tools/list sent with Mcp-Method: TOOLS/LIST is not served',
  area: 'http-headers',
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const walk = await ctx.tools();
    const first = walk.pages[0]?.exchange;
    if (!first || !served(first))
      return [
        skip(
          `tools/list was not served${first ? ` (${describe(first)})` : ''}, so nothing shows what another ` +
            `case of Mcp-Method changes`,
        ),
      ];
    const mismatch = await methodMismatchProbe(ctx);
    if (served(mismatch)) {
      return [
        skip(
          `tools/list sent with Mcp-Method: server/discover was served too (${describe(mismatch)}): the server ` +
            `does not compare Mcp-Method with the body at all (see http.validate.mismatch), so its case says ` +
            `nothing more`,
        ),
      ];
    }
    const probe = await list(ctx, { 'Mcp-Method': 'TOOLS/LIST' });
    const what = `tools/list sent with Mcp-Method: TOOLS/LIST: ${describe(probe)}`;
    if (served(probe)) {
      return [
        fail(
          `${what}: the header value was taken for tools/list, i.e. compared case-insensitively (the spec says ` +
            `only, descriptively: "Header values (such as method names) are case-sensitive.")`,
          "HTTP 400 with JSON-RPC error -32020: TOOLS/LIST is not the body's method tools/list, and a header " +
            'that does not match the body is rejected',
          [first, probe],
        ),
      ];
    }
    if (probe.status === undefined || probe.status >= 500 || !errorOf(probe.response))
      return [skip(`${what}: no 4xx JSON-RPC error to judge`)];
    const code = errorOf(probe.response)!.code;
    const rejected =
      probe.status === 400 && code === ERR.headerMismatch
        ? 'rejected as a header mismatch'
        : "not served (whether -32020 is the right answer to a mismatch is http.validate.mismatch's to judge)";
    return [pass(`${what}: the value was not taken for tools/list, ${rejected}`, [probe])];
  },
});

export const HTTP_CHECKS = [
  ...HTTP_HEADER_CHECKS,
  getDelete405,
  ignoreSession,
  ignoreLastEventId,
  headerValueCase,
] as const;
