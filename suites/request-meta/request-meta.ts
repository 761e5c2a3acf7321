import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  ERR,
  errorOf,
  type Exchange,
  isInitializeRevision,
  isObject,
  type JsonRpcId,
  LATEST_INITIALIZE_REVISION,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  LATEST_REVISION,
  type Outcome,
  pending,
  resultOf,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { INITIALIZE_ONLY } from '../kit/shared-connections.js';
import { onRevisions } from '../kit/same-sentences.js';

const MISSING_32602 =
  'A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code ' +
  '-32602 (Invalid params).';

interface Probe {
  label: string;
  exchange: Exchange;
  /** Codes that answer this probe correctly. */
  accepted: number[];
}

/**
 * tools/list requests each missing one required field (basic/index#meta), sent once and judged by two checks. A field
 * of the wrong type is not probed: the sentence speaks of a request "missing any required field".
 */
function metaProbes(ctx: CheckContext): Promise<Probe[]> {
  return ctx.memo('meta-probes', async () => {
    const good = ctx.client.statelessMeta();
    const { [META_PROTOCOL_VERSION]: _version, ...noVersion } = good;
    const { [META_CLIENT_CAPABILITIES]: _caps, ...noCaps } = good;
    const http = ctx.transportKind === 'http';
    // When the body lacks the version but the header has one, HeaderMismatch is as right as Invalid params (§6.9): a
    // body without params, or without _meta, lacks it as much as a _meta without protocolVersion.
    const orMismatch = http ? [ERR.invalidParams, ERR.headerMismatch] : [ERR.invalidParams];
    const cases: { label: string; send: () => Promise<Exchange>; accepted: number[] }[] = [
      { label: 'no params at all', send: () => rawList(ctx, undefined), accepted: orMismatch },
      {
        label: 'params without _meta',
        send: () => ctx.client.request('tools/list', {}, { meta: null }),
        accepted: orMismatch,
      },
      {
        label: '_meta without protocolVersion',
        send: () => ctx.client.request('tools/list', {}, { meta: noVersion }),
        accepted: orMismatch,
      },
      {
        label: '_meta without clientCapabilities',
        send: () => ctx.client.request('tools/list', {}, { meta: noCaps }),
        accepted: [ERR.invalidParams],
      },
    ];
    const probes: Probe[] = [];
    for (const c of cases) probes.push({ label: c.label, exchange: await c.send(), accepted: c.accepted });
    return probes;
  });
}

function rawList(ctx: CheckContext, params: Record<string, unknown> | undefined): Promise<Exchange> {
  const id = ctx.client.newId();
  const message =
    params === undefined
      ? { jsonrpc: '2.0', id, method: 'tools/list' }
      : { jsonrpc: '2.0', id, method: 'tools/list', params };
  return ctx.client.raw(message, id, ctx.client.headersFor(LATEST_REVISION, 'tools/list', {}, undefined));
}

const answer = (e: Exchange) => {
  const error = errorOf(e.response);
  if (error) return `error ${String(error.code)}`;
  if (resultOf(e.response)) return 'a result';
  return e.failure?.message ?? 'no answer';
};

export const metaRequired: CheckDefinition = defineCheck({
  id: 'meta.req.missing-32602',
  sentences: {
    '2026-07-28': [{ ref: 'basic/index#_meta', text: MISSING_32602, keyword: 'MUST' }],
  },
  title: 'A request missing a required _meta field is rejected with -32602',
  specRef: 'basic/index#meta',
  area: 'request-meta',
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    const probes = await metaProbes(ctx);
    const wrong = probes.filter((p) => !p.accepted.includes(errorOf(p.exchange.response)?.code as number));
    if (wrong.length === 0) {
      const mismatch = probes
        .filter((p) => errorOf(p.exchange.response)?.code === ERR.headerMismatch)
        .map((p) => p.label);
      const how =
        mismatch.length > 0
          ? `: -32020 for ${mismatch.join(', ')} (the body lacks the version its MCP-Protocol-Version header ` +
            `names, a HeaderMismatch too), -32602 for the rest`
          : ' with -32602';
      return [pass(`all ${probes.length} malformed requests were rejected${how}`)];
    }
    return [
      fail(
        `malformed _meta not rejected: ${wrong.map((w) => `${w.label} → ${answer(w.exchange)}`).join('; ')}`,
        ctx.transportKind === 'http'
          ? 'JSON-RPC error -32602 (Invalid params) for a request whose _meta lacks protocolVersion or ' +
              'clientCapabilities (or -32020, HeaderMismatch, where the body lacks the version its ' +
              'MCP-Protocol-Version header names)'
          : 'JSON-RPC error -32602 (Invalid params) for a request whose _meta lacks protocolVersion or ' +
              'clientCapabilities',
        wrong.map((w) => w.exchange),
      ),
    ];
  },
});

export const metaHttpStatus: CheckDefinition = defineCheck({
  id: 'meta.req.missing-http-400',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text: `${MISSING_32602} On HTTP, the response status MUST be 400 Bad Request.`,
        keyword: 'MUST',
      },
    ],
  },
  title: 'Over HTTP, the rejection of a request with a malformed _meta has status 400',
  specRef: 'basic/index#meta',
  area: 'request-meta',
  needs: ['live', 'http'],
  phase: 'serial',
  run: async (ctx) =>
    statusOf(
      await metaProbes(ctx),
      (p) => p.accepted.includes(errorOf(p.exchange.response)?.code as number),
      'malformed-_meta rejections',
    ),
});

/**
 * The status rule judges only the probes `judged` picks (on 2026-07-28, those answered with the right error: a wrong
 * error is the other check's finding).
 */
function statusOf(
  probes: Probe[],
  judged: (p: Probe) => boolean,
  what: string,
  none = `no ${what} to judge (see the companion check)`,
): Outcome[] {
  const relevant = probes.filter(judged);
  if (relevant.length === 0) return [skip(none)];
  const wrong = relevant.filter((p) => p.exchange.status !== 400);
  if (wrong.length === 0) return [pass(`all ${relevant.length} ${what} came with HTTP 400`)];
  return [
    fail(
      `${wrong.length} ${what} came with ${wrong.map((w) => `HTTP ${w.exchange.status} (${w.label})`).join(', ')}`,
      'HTTP status 400 Bad Request',
      wrong.map((w) => w.exchange),
    ),
  ];
}

const UNSUPPORTED = '1900-01-01';

/**
 * Requests naming an unsupported version (on the initialize wire, in the header only), after valid ones on the same
 * connection, on two methods.
 */
function versionProbes(ctx: CheckContext): Promise<Probe[]> {
  return ctx.memo('version-probes', async () => {
    const meta = { ...ctx.client.statelessMeta(), [META_PROTOCOL_VERSION]: UNSUPPORTED };
    const headers = { 'MCP-Protocol-Version': UNSUPPORTED };
    const probes: Probe[] = [];
    // tools/call of a tool nobody lists: safe, and the version is checked before the name.
    const calls: [string, Record<string, unknown>][] = [
      ['tools/list', {}],
      ['tools/call', { name: 'mtc_no_such_tool_5f3a9c', arguments: {} }],
    ];
    for (const [method, params] of calls) {
      probes.push({
        label: method,
        exchange: await ctx.client.request(method, params, { meta, headers }),
        accepted: [ERR.unsupportedVersion],
      });
    }
    return probes;
  });
}

export const unsupportedVersion: CheckDefinition = defineCheck({
  id: 'version.unsupported-32022',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/versioning#protocol-version-negotiation',
        text:
          'If the server does not implement the requested version (whether the version is unknown to the ' +
          'server, or is a known version the server has chosen not to support), it MUST respond with an ' +
          'UnsupportedProtocolVersionError listing the versions it does support:',
        keyword: 'MUST',
      },
      {
        ref: 'schema.json#/$defs/UnsupportedProtocolVersionError/properties/error/allOf/1/properties/data/required',
        text: '["requested","supported"]',
        keyword: 'schema.json structural rule',
      },
    ],
  },
  title: 'A request for an unsupported protocol version gets -32022 listing the supported versions',
  area: 'request-meta',
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    const probes = await versionProbes(ctx);
    const problems: string[] = [];
    const asides: string[] = [];
    for (const p of probes) {
      const error = errorOf(p.exchange.response);
      if (error?.code !== ERR.unsupportedVersion) {
        problems.push(`${p.label} with version ${UNSUPPORTED} → ${answer(p.exchange)}`);
        continue;
      }
      const data = isObject(error.data) ? error.data : undefined;
      if (
        !data ||
        !Array.isArray(data.supported) ||
        data.supported.length === 0 ||
        !data.supported.every((v) => typeof v === 'string')
      ) {
        problems.push(`${p.label}: -32022 without data.supported (a non-empty list of versions)`);
      } else if (typeof data.requested !== 'string') {
        problems.push(`${p.label}: -32022 without data.requested (a string)`);
      } else if (data.requested !== UNSUPPORTED) {
        // The schema only describes the field ("The protocol version that was requested by the client"): noted, not
        // judged.
        asides.push(`${p.label}: data.requested was ${JSON.stringify(data.requested)}, not "${UNSUPPORTED}"`);
      }
    }
    const aside = asides.length > 0 ? ` (not judged, the schema only describes the field: ${asides.join('; ')})` : '';
    if (problems.length === 0)
      return [
        pass(
          `both requests for version ${UNSUPPORTED} got -32022 with data.supported and data.requested${aside}`,
          probes.map((p) => p.exchange),
        ),
      ];
    const evidence: Exchange[] = probes.map((p) => p.exchange);
    const served = probes.some((p) => resultOf(p.exchange.response));
    if (served && ctx.canOpenConnections) {
      const fresh = await firstRequestOnNewConnection(ctx);
      if (fresh && errorOf(fresh.response)?.code === ERR.unsupportedVersion) {
        problems.push(
          'the same request sent FIRST on a new connection was rejected with -32022: the server checks the ' +
            'version once per connection, not per request',
        );
        evidence.push(fresh);
      }
    }
    return [
      fail(
        problems.join('; '),
        `error -32022 (UnsupportedProtocolVersion) with data {supported: [the versions the server supports], ` +
          `requested: "${UNSUPPORTED}"}, on every request — not only the first on a connection`,
        evidence,
      ),
    ];
  },
});

/** Diagnosis only: the unsupported-version request as the very first message of a fresh connection. */
async function firstRequestOnNewConnection(ctx: CheckContext): Promise<Exchange | undefined> {
  try {
    const client = await ctx.anotherConnection({ negotiate: false });
    return await client.request(
      'tools/list',
      {},
      {
        meta: { ...client.statelessMeta(), [META_PROTOCOL_VERSION]: UNSUPPORTED },
        headers: { 'MCP-Protocol-Version': UNSUPPORTED },
      },
    );
  } catch {
    return undefined;
  }
}

export const unsupportedVersionStatus: CheckDefinition = defineCheck({
  id: 'http.pv.unsupported',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/transports/streamable-http#protocol-version-header',
        text:
          'If the server does not implement the requested protocol version (whether the version is unknown to ' +
          'the server, or is a known version the server has chosen not to support), it MUST respond with 400 Bad ' +
          'Request and an UnsupportedProtocolVersionError listing its supported versions.',
        keyword: 'MUST',
      },
    ],
    // The header arrived with 2025-06-18; on the initialize wire an unsupported one is refused with 400, no error code
    // named.
    ...onRevisions(['2025-11-25', '2025-06-18'], {
      ref: 'basic/transports#protocol-version-header',
      text:
        'If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond ' +
        'with 400 Bad Request.',
      keyword: 'MUST',
    }),
  },
  title:
    'Over HTTP, a request naming an unsupported protocol version is answered with status 400 (with -32022 on ' +
    '2026-07-28)',
  area: 'request-meta',
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const probes = await versionProbes(ctx);
    if (isInitializeRevision(ctx.revision)) {
      const what = `answers to a request with MCP-Protocol-Version: ${UNSUPPORTED}`;
      return statusOf(
        probes,
        (p) => p.exchange.status !== undefined,
        what,
        `no HTTP answer to a request with MCP-Protocol-Version: ${UNSUPPORTED}`,
      );
    }
    return statusOf(
      probes,
      (p) => errorOf(p.exchange.response)?.code === ERR.unsupportedVersion,
      'unsupported-version errors',
    );
  },
});

/** What a client of 2025-11-25 sends first; it goes on a connection of its own (INITIALIZE_ONLY). */
function initializeRequest(id: JsonRpcId): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_INITIALIZE_REVISION,
      capabilities: {},
      clientInfo: { name: 'mcp-tools-conformance', version: '0' },
    },
  };
}

export const initializeErrorNamesVersions: CheckDefinition = defineCheck({
  id: 'version.initialize-error-names-versions',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/versioning#backward-compatibility-with-initialization-based-versions',
        text:
          'A server that supports only modern versions SHOULD name the protocol versions it supports in any ' +
          'error it returns to an initialize request, on any transport:',
        keyword: 'SHOULD',
      },
    ],
  },
  title: 'An error answering a legacy initialize request names the protocol versions the server supports',
  area: 'request-meta',
  needs: ['live'],
  prepare(ctx) {
    ctx.prepareConnection(INITIALIZE_ONLY);
  },
  async run(ctx) {
    if (!ctx.canOpenConnections)
      return [skip('cannot open another connection to this target, and initialize is not sent on the audited one')];
    const { result } = await ctx.discover().then((e) => ({ result: resultOf(e.response) }));
    // The version this audit is served counts as supported whatever supportedVersions says (discover.supported-versions
    // judges that list).
    const listed = Array.isArray(result?.supportedVersions)
      ? result.supportedVersions.filter((v): v is string => typeof v === 'string')
      : [];
    const supported = [...new Set([LATEST_REVISION, ...listed])];
    // The rest is on a connection of its own (over stdio, a process still starting): the phases go on meanwhile.
    return pending(answerToInitialize(ctx).then((exchange) => judgeInitializeError(exchange, supported)));
  },
});

/** The answer to an initialize, sent alone on its own connection, which is closed as soon as it is answered. */
async function answerToInitialize(ctx: CheckContext): Promise<Exchange> {
  try {
    const client = await ctx.sharedConnection(INITIALIZE_ONLY);
    const id = client.newId();
    return await client.raw(initializeRequest(id), id, {});
  } finally {
    ctx.closeSharedConnection(INITIALIZE_ONLY);
  }
}

function judgeInitializeError(exchange: Exchange, supported: readonly string[]): Outcome[] {
  const error = errorOf(exchange.response);
  if (!error) {
    const why = resultOf(exchange.response)
      ? 'the server answers initialize with a result: it also speaks an initialization-based version'
      : `no JSON-RPC error came back (${exchange.failure?.message ?? 'no answer'})`;
    return [skip(why)];
  }
  const text = JSON.stringify(error);
  const named = supported.filter((v) => text.includes(v));
  if (named.length > 0)
    return [pass(`the error answering initialize (${String(error.code)}) names ${named.join(', ')}`, [exchange])];
  return [
    fail(
      `the error answering a ${LATEST_INITIALIZE_REVISION} initialize (${String(error.code)} ` +
        `${JSON.stringify(String(error.message)).slice(0, 160)}) names none of the versions the server supports (` +
        `${supported.join(', ')})`,
      `the supported versions (e.g. "${supported[0]}") in the error's message or data, so that a legacy client ` +
        `can tell its user`,
      [exchange],
    ),
  ];
}

export const REQUEST_META_CHECKS = [
  metaRequired,
  metaHttpStatus,
  unsupportedVersion,
  unsupportedVersionStatus,
  initializeErrorNamesVersions,
] as const;
