import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, type Exchange, isObject, META_SERVER_INFO, methodOf, resultOf } from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { judgeEach } from '../kit/judge-each.js';

/**
 * resultType values each method may answer with (basic/index#resulttype; InputRequiredResult only where MRTR applies).
 */
const ALLOWED_RESULT_TYPES: Record<string, readonly string[]> = {
  'server/discover': ['complete'],
  'tools/list': ['complete'],
  'tools/call': ['complete', 'input_required'],
  'subscriptions/listen': ['complete'],
};

function resultExchanges(
  exchanges: readonly Exchange[],
): { exchange: Exchange; result: Record<string, unknown>; method: string }[] {
  return exchanges.flatMap((exchange) => {
    const result = resultOf(exchange.response);
    return result ? [{ exchange, result, method: methodOf(exchange) }] : [];
  });
}

export const resultTypePresent: CheckDefinition = defineCheck({
  id: 'base.res.resulttype',
  title: 'Every result carries resultType',
  area: 'results',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#result-responses',
        text: 'The result MUST include a resultType field to indicate the type of the result.',
        keyword: 'MUST',
      },
      { ref: 'schema.json#/$defs/Result/required', text: '["resultType"]', keyword: 'schema.json structural rule' },
    ],
  },
  phase: 'final',
  run(ctx) {
    return judgeEach(resultExchanges(ctx.exchanges()), {
      none: 'no result was received',
      isBad: (r) => !('resultType' in r.result),
      pass: (all) => `all ${all.length} results carry resultType`,
      fail: (missing, all) =>
        `${missing.length} of ${all.length} results have no resultType (` +
        `${[...new Set(missing.map((m) => m.method))].join(', ')})`,
      expected: 'every 2026-07-28 result includes a resultType field',
      evidence: (m) => m.exchange,
    });
  },
});

export const resultTypeAllowed: CheckDefinition = defineCheck({
  id: 'base.resulttype.set',
  covers: ['version.ext.fallback', 'mrtr.only-supported'],
  title: 'resultType is a value the method may return',
  area: 'results',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#resulttype',
        text:
          'The set of supported ResultType values MUST be created from the set defined in the core protocol and ' +
          'include any additional values of supported extensions that are advertised via capabilities.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/patterns/mrtr#supported-requests',
        text: 'Servers MUST NOT send InputRequiredResult responses on any other client requests.',
        keyword: 'MUST NOT',
      },
      {
        ref: 'basic/versioning#extension-negotiation',
        text:
          'If one party supports an extension but the other does not, the supporting party MUST either revert ' +
          'to core protocol behavior or reject the request with an appropriate error.',
        keyword: 'MUST',
      },
    ],
  },
  phase: 'final',
  run(ctx) {
    const allowedFor = (method: string) => ALLOWED_RESULT_TYPES[method] ?? ['complete', 'input_required'];
    return judgeEach(
      resultExchanges(ctx.exchanges()).filter((r) => 'resultType' in r.result),
      {
        none: 'no result with a resultType was received',
        isBad: (r) => !allowedFor(r.method).includes(r.result.resultType as string),
        pass: (all) => `all ${all.length} resultType values are allowed for their methods`,
        fail: (bad) =>
          `${bad.length} result(s) carry a resultType their method may not return, e.g. ${bad[0]!.method} → ` +
          `${JSON.stringify(bad[0]!.result.resultType)}`,
        expected: ([first]) =>
          `${first!.method} answers resultType ${allowedFor(first!.method)
            .map((v) => `"${v}"`)
            .join(
              ' or ',
            )}: this client declares no extension, so a server that advertises one reverts to core behaviour with it`,
        evidence: (b) => b.exchange,
      },
    );
  },
});

export const resultServerInfo: CheckDefinition = defineCheck({
  id: 'meta.res.serverinfo',
  title: 'Results carry _meta serverInfo so the server identifies itself without connection state',
  area: 'results',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text:
          "Servers SHOULD include the following io.modelcontextprotocol/* field in every result's _meta, unless " +
          'specifically configured not to do so, to identify themselves without relying on any prior connection ' +
          'state:',
        keyword: 'SHOULD',
      },
    ],
  },
  phase: 'final',
  run(ctx) {
    const results = resultExchanges(ctx.exchanges()).filter((r) => r.method !== 'server/discover');
    if (results.length === 0) return [skip('no result other than server/discover was received')];
    const missing = results.filter((r) => {
      const info = isObject(r.result._meta) ? r.result._meta[META_SERVER_INFO] : undefined;
      return !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string');
    });
    if (missing.length === 0) return [pass(`all ${results.length} results carry serverInfo`)];
    return [
      fail(
        `${missing.length} of ${results.length} results lack _meta["${META_SERVER_INFO}"] (` +
          `${[...new Set(missing.map((m) => m.method))].join(', ')})`,
        `every result's _meta includes "${META_SERVER_INFO}": {name, version}`,
        missing.slice(0, 3).map((m) => m.exchange),
      ),
    ];
  },
});

export const RESULT_CHECKS = [resultTypePresent, resultTypeAllowed, resultServerInfo] as const;
