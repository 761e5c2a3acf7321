import { defineCheck } from '../kit/define-check.js';
import { type CheckContext, type CheckDefinition, type Exchange, resultOf } from '../kit/index.js';
import { judgeEach } from '../kit/judge-each.js';
import { fail, pass, skip } from '../kit/outcome.js';

interface Cacheable {
  label: string;
  exchange: Exchange;
  result: Record<string, unknown>;
}

/** Complete results of the operations that MUST carry caching hints: server/discover and every tools/list page. */
async function cacheableResults(ctx: CheckContext): Promise<Cacheable[]> {
  const out: Cacheable[] = [];
  const discover = await ctx.discover();
  const d = resultOf(discover.response);
  if (d && d.resultType !== 'input_required') out.push({ label: 'server/discover', exchange: discover, result: d });
  const walk = await ctx.tools();
  walk.pages.forEach((page, i) => {
    if (page.result && page.result.resultType !== 'input_required') {
      out.push({ label: `tools/list page ${i + 1}`, exchange: page.exchange, result: page.result });
    }
  });
  return out;
}

export const cacheHintsPresent: CheckDefinition = defineCheck({
  id: 'cache.server.hints',
  title: 'server/discover and every tools/list page carry ttlMs and cacheScope',
  area: 'caching',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/utilities/caching#cacheable-results',
        text:
          'Servers MUST include caching hints on results with resultType: "complete" returned by the following ' +
          'operations: server/discover tools/list',
        keyword: 'MUST',
      },
      {
        ref: 'schema.json#/$defs/ListToolsResult/required',
        text: '["cacheScope","resultType","tools","ttlMs"]',
        keyword: 'schema.json structural rule',
      },
      {
        ref: 'schema.json#/$defs/ListToolsResult/properties/cacheScope/enum',
        text: '["private","public"]',
        keyword: 'schema.json structural rule',
      },
    ],
  },
  async run(ctx) {
    const describe = (item: Cacheable) =>
      `${item.label}: ttlMs=${JSON.stringify(item.result.ttlMs)}, cacheScope=${JSON.stringify(item.result.cacheScope)}`;
    return judgeEach(await cacheableResults(ctx), {
      none: 'no complete server/discover or tools/list result was received',
      isBad: (item) => ctx.schemas.issuesFor(this.id, item.exchange, ctx.revision).length > 0,
      pass: (all) => `ttlMs and cacheScope present and well-formed on ${all.length} results`,
      fail: (bad) => `caching hints missing or malformed on ${bad.map(describe).join('; ')}`,
      expected:
        'every complete result of server/discover and tools/list has ttlMs (integer ≥ 0) and cacheScope ' +
        '("public" or "private")',
      evidence: (b) => b.exchange,
    });
  },
});

export const ttlNonNegative: CheckDefinition = defineCheck({
  id: 'cache.server.ttl-nonneg',
  title: 'ttlMs is an integer >= 0',
  area: 'caching',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/utilities/caching#time-to-live-ttl-field',
        text: 'Servers MUST provide a ttlMs value that is >= 0.',
        keyword: 'MUST',
      },
      {
        ref: 'schema.json#/$defs/ListToolsResult/properties/ttlMs/type',
        text: '"integer"',
        keyword: 'schema.json structural rule',
      },
    ],
  },
  async run(ctx) {
    return judgeEach(
      (await cacheableResults(ctx)).filter((item) => 'ttlMs' in item.result),
      {
        none: 'no result carried ttlMs',
        isBad: (item) => !(Number.isInteger(item.result.ttlMs) && (item.result.ttlMs as number) >= 0),
        pass: (all) => `ttlMs is a non-negative integer on ${all.length} results`,
        fail: (bad) =>
          `ttlMs is not a non-negative integer on ` +
          `${bad.map((b) => `${b.label} (${JSON.stringify(b.result.ttlMs)})`).join(', ')}`,
        expected: 'servers MUST provide a ttlMs value that is >= 0 (an integer number of milliseconds)',
        evidence: (b) => b.exchange,
      },
    );
  },
});

export const scopeConsistent: CheckDefinition = defineCheck({
  id: 'cache.server.scope-consistent',
  covers: ['cache.server.private-pages'],
  title: 'Every page of one tools/list walk has the same cacheScope',
  area: 'caching',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/utilities/caching#interaction-with-pagination',
        text: 'Servers MUST apply the same cacheScope to all response pages for a given list request.',
        keyword: 'MUST',
      },
      {
        ref: 'server/utilities/caching#interaction-with-pagination',
        text:
          'For example, if the first page of a tools/list response has cacheScope: "private", all subsequent ' +
          'pages for that request MUST also be "private".',
        keyword: 'MUST',
      },
    ],
  },
  async run(ctx) {
    const walk = await ctx.tools();
    const scoped = walk.pages.filter((p) => p.result && typeof p.result.cacheScope === 'string');
    if (scoped.length < 2) return [skip(`only ${scoped.length} page(s) carried a cacheScope: nothing to compare`)];
    const first = scoped[0]!.result!.cacheScope;
    const different = scoped.filter((p) => p.result!.cacheScope !== first);
    if (different.length === 0) return [pass(`all ${scoped.length} pages have cacheScope "${String(first)}"`)];
    const pages = walk.pages.map((p, i) => `page ${i + 1}: ${JSON.stringify(p.result?.cacheScope)}`).join(', ');
    return [
      fail(
        `cacheScope differs between pages (${pages})`,
        `the same cacheScope as page 1 ("${String(first)}") on every page`,
        [scoped[0]!.exchange, different[0]!.exchange],
      ),
    ];
  },
});

export const interimResultsUncached: CheckDefinition = defineCheck({
  id: 'cache.irr-no-hints',
  title: 'input_required results carry no caching hints (ttlMs, cacheScope)',
  area: 'caching',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/utilities/caching#cacheable-results',
        text:
          'Interim results with resultType: "input_required" (see multi round-trip requests) are not cacheable ' +
          'and carry no caching hints.',
        keyword: 'descriptive',
      },
    ],
  },
  // input_required answers only tool calls.
  needs: ['tool-call'],
  phase: 'final',
  run(ctx) {
    return judgeEach(
      ctx.exchanges().filter((e) => resultOf(e.response)?.resultType === 'input_required'),
      {
        none: 'no input_required result was received',
        isBad: (e) => {
          const result = resultOf(e.response)!;
          return 'ttlMs' in result || 'cacheScope' in result;
        },
        pass: (all) => `${all.length} input_required result(s), none with ttlMs or cacheScope`,
        fail: (hinted, all) => {
          const first = resultOf(hinted[0]!.response)!;
          return (
            `${hinted.length} of ${all.length} input_required result(s) carry caching hints (ttlMs=` +
            `${JSON.stringify(first.ttlMs)}, cacheScope=${JSON.stringify(first.cacheScope)}): the page describes ` +
            `interim results as carrying none`
          );
        },
        expected: 'no ttlMs and no cacheScope on an input_required result',
        evidence: (e) => e,
        evidenceLimit: 3,
      },
    );
  },
});

export const CACHING_CHECKS = [cacheHintsPresent, ttlNonNegative, scopeConsistent, interimResultsUncached] as const;
