import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  describeIssues,
  errorOf,
  isObject,
  META_SERVER_INFO,
  LATEST_REVISION,
  resultOf,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';

export const discoverImplemented: CheckDefinition = defineCheck({
  id: 'discover.must-implement',
  title: 'server/discover is implemented and answers with a DiscoverResult',
  specRef: 'server/discover',
  area: 'discovery',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/versioning#protocol-version-negotiation',
        text: 'Servers MUST implement server/discover.',
        keyword: 'MUST',
      },
      { ref: 'server/discover', text: 'Servers MUST implement it.', keyword: 'MUST' },
    ],
  },
  async run(ctx) {
    const exchange = await ctx.discover();
    if (resultOf(exchange.response)) return [pass('server/discover answered with a result', [exchange])];
    const error = errorOf(exchange.response);
    const got = error
      ? `the JSON-RPC error ${String(error.code)} "${String(error.message)}"`
      : (exchange.failure?.message ?? 'no result');
    return [
      fail(`server/discover answered with ${got}`, 'a DiscoverResult: servers MUST implement server/discover', [
        exchange,
      ]),
    ];
  },
});

export const discoverSupportedVersions: CheckDefinition = defineCheck({
  id: 'discover.supported-versions',
  title:
    'DiscoverResult.supportedVersions lists the version the server just served (an inference from what the ' +
    'field describes)',
  area: 'discovery',
  // The field's presence and type are schema.json rules, reported by schema.result.valid; that it lists the versions
  // the server supports is description only, so a list that omits the version just served can only warn.
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/discover#discoverresult',
        text:
          'supportedVersions: Protocol versions the server supports. The client should choose one of these for ' +
          'subsequent requests.',
        keyword: 'descriptive',
      },
    ],
  },
  async run(ctx) {
    const exchange = await ctx.discover();
    const result = resultOf(exchange.response);
    if (!result) return [skip('server/discover returned no result (see discover.must-implement)')];
    if (!Array.isArray(result.supportedVersions))
      return [
        skip('supportedVersions is absent or not an array (a schema.json rule, reported by schema.result.valid)'),
      ];
    const issues = ctx.schemas.issuesFor(this.id, exchange, ctx.revision);
    if (issues.length > 0) {
      return [
        fail(
          `supportedVersions names no version: ${describeIssues(issues)}`,
          'the protocol versions the server supports, here at least the one it just served',
          [exchange],
        ),
      ];
    }
    const versions = result.supportedVersions as string[];
    if (!versions.includes(LATEST_REVISION)) {
      return [
        fail(
          `supportedVersions ${JSON.stringify(versions)} omits ${LATEST_REVISION}, yet the server answered a ` +
            `${LATEST_REVISION} request`,
          `supportedVersions describes the versions the server supports, so it would list ${LATEST_REVISION}`,
          [exchange],
        ),
      ];
    }
    return [pass(`supportedVersions: ${JSON.stringify(versions)}`, [exchange])];
  },
});

export const discoverServerInfo: CheckDefinition = defineCheck({
  id: 'discover.serverinfo',
  title: 'DiscoverResult carries _meta serverInfo (name and version)',
  area: 'discovery',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/discover#discoverresult',
        text:
          "_meta['io.modelcontextprotocol/serverInfo']: Name and version of the server software. Servers SHOULD " +
          'include this field.',
        keyword: 'SHOULD',
      },
    ],
  },
  async run(ctx) {
    const exchange = await ctx.discover();
    const result = resultOf(exchange.response);
    if (!result) return [skip('server/discover returned no result (see discover.must-implement)')];
    const info = isObject(result._meta) ? result._meta[META_SERVER_INFO] : undefined;
    if (isObject(info) && typeof info.name === 'string' && typeof info.version === 'string') {
      return [pass(`serverInfo: ${info.name} ${info.version}`, [exchange])];
    }
    return [
      fail(
        `DiscoverResult._meta["${META_SERVER_INFO}"] is ` +
          `${info === undefined ? 'absent' : 'not an Implementation object'}`,
        `_meta["${META_SERVER_INFO}"] = {name, version}`,
        [exchange],
      ),
    ];
  },
});

export const DISCOVER_CHECKS = [discoverImplemented, discoverSupportedVersions, discoverServerInfo] as const;
