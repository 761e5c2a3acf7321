import { defineCheck } from '../kit/define-check.js';
import {
  canonicalJson,
  type CheckDefinition,
  ERR,
  errorOf,
  type Exchange,
  isObject,
  META_CLIENT_INFO,
  methodOf,
  resultOf,
  TargetGoneError,
  TargetUnavailableError,
  type ToolWalk,
  walkTools,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { LISTING_ONLY } from '../kit/shared-connections.js';
import { fromRevision } from '../kit/same-sentences.js';

const names = (walk: ToolWalk) => walk.tools.map((t) => (typeof t.name === 'string' ? t.name : '#?'));
const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** name → definition, for comparing whole listings. */
function definitions(walk: ToolWalk): Map<string, Record<string, unknown>> {
  const map = new Map<string, Record<string, unknown>>();
  for (const t of walk.tools) map.set(String(t.name), t);
  return map;
}

/**
 * Key order does not make a definition different: texts that differ are compared in canonical form. A page received
 * again with the same text shares the first one's objects (protocol/tool-pages.ts), so most comparisons end at once.
 */
function sameDefinition(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b) || canonicalJson(a) === canonicalJson(b);
}

/** `-name`: only in `a`; `+name`: only in `b`; `~name`: in both, defined differently. */
function difference(a: Map<string, Record<string, unknown>>, b: Map<string, Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const name of a.keys()) if (!b.has(name)) out.push(`-${name}`);
  for (const name of b.keys()) if (!a.has(name)) out.push(`+${name}`);
  for (const [name, def] of a) {
    const other = b.get(name);
    if (other !== undefined && !sameDefinition(def, other)) out.push(`~${name}`);
  }
  return out;
}

/** A difference in words, naming the side each tool is on: `sides` names the side of `a`, then of `b`. */
export function describeDifference(diff: readonly string[], sides: readonly [a: string, b: string], max = 10): string {
  const of = (sign: string) => diff.filter((d) => d.startsWith(sign)).map((d) => d.slice(1));
  const parts = [
    [`only on ${sides[0]}`, of('-')],
    [`only on ${sides[1]}`, of('+')],
    ['defined differently', of('~')],
  ] as const;
  return parts
    .filter(([, tools]) => tools.length > 0)
    .map(
      ([label, tools]) =>
        `${label}: ${tools.slice(0, max).join(', ')}${tools.length > max ? ` (+${tools.length - max} more)` : ''}`,
    )
    .join('; ');
}

/**
 * The 2026-07-28 sentence behind the listing checks. The initialize revisions have none of it: there a session's
 * tool set may differ per session and change after a call, so these checks do not run on those wires.
 */
const TOOL_SET_SENTENCE = {
  ref: 'server/tools#capabilities',
  text:
    'This set MAY be empty and MAY change over time (see List Changed Notification), but MUST NOT vary ' +
    'per-connection or as a side effect of other requests on the connection.',
  keyword: 'MUST NOT',
} as const;

export const deterministicOrder: CheckDefinition = defineCheck({
  id: 'tools.list.deterministic-order',
  title: 'tools/list returns the tools in the same order on every walk while the set is unchanged',
  area: 'live-listing',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/tools#capabilities',
        text:
          'Servers SHOULD return tools in a deterministic order (i.e., the same ordering across requests when ' +
          'the underlying set of tools has not changed).',
        keyword: 'SHOULD',
      },
    ],
  },
  needs: ['live'],
  async run(ctx) {
    const first = await ctx.tools();
    if (first.stop.kind !== 'complete')
      return [skip('the first walk did not complete (see tools.list.respond / page.walk.terminates)')];
    const again = [await walkTools(ctx.client), await walkTools(ctx.client)];
    const base = names(first);
    const comparable = again.filter((w) => w.stop.kind === 'complete' && sameSet(names(w), base));
    if (comparable.length === 0)
      return [
        skip(
          'the set of tools changed between walks, so their order cannot be compared (a change over time is allowed)',
        ),
      ];
    const different = comparable.find((w) => names(w).join('\n') !== base.join('\n'));
    if (!different)
      return [pass(`${comparable.length + 1} walks listed the same ${base.length} tools in the same order`)];
    return [
      fail(
        'two walks listed the same set of tools in different orders',
        'the same ordering across requests while the set is unchanged (clients cache the list; LLM prompt ' +
          'caches depend on it)',
        [
          note('order on the first walk', base),
          note('order on a later walk', names(different)),
          ...different.pages.map((p) => p.exchange),
        ],
      ),
    ];
  },
});

export const connectionInvariance: CheckDefinition = defineCheck({
  id: 'tools.list.no-connection-variance',
  title: 'The tool set does not vary per connection',
  area: 'live-listing',
  sentences: { '2026-07-28': [TOOL_SET_SENTENCE] },
  needs: ['live'],
  prepare(ctx) {
    ctx.prepareConnection(LISTING_ONLY);
  },
  async run(ctx) {
    if (!ctx.canOpenConnections) return [skip('cannot open another connection to this target')];
    const first = await ctx.tools();
    if (first.stop.kind !== 'complete')
      return [skip('the first walk did not complete (see tools.list.respond / page.walk.terminates)')];
    let other: ToolWalk;
    try {
      // One more connection (a new process over stdio, a new HTTP connection): a set that varies per connection
      // differs between any two of them.
      other = await walkTools(await ctx.sharedConnection(LISTING_ONLY));
    } catch (error) {
      if (error instanceof TargetGoneError || error instanceof TargetUnavailableError) {
        return [{ status: 'error', message: `could not list tools on an independent connection: ${error.message}` }];
      }
      throw error;
    }
    const base = definitions(first);
    const recheck = await walkTools(ctx.client);
    if (difference(base, definitions(recheck)).length > 0) {
      return [
        skip(
          'the tool set changed on the first connection during the audit (allowed over time), so connections ' +
            'cannot be compared',
        ),
      ];
    }
    const diff = difference(base, definitions(other));
    if (diff.length === 0)
      return [pass(`an independent connection listed the same ${base.size} tool definitions as the audit's own`)];
    return [
      fail(
        `a new connection listed a different tool set (` +
          `${describeDifference(diff, ['the first connection', 'the new connection'])}); the first connection's ` +
          `set did not change meanwhile`,
        'the same set on every connection: the set MAY change over time and by authorization, but MUST NOT ' +
          'vary per connection',
        [
          note('difference (-: only on the first connection, +: only on the new one, ~: defined differently)', diff),
          ...other.pages.map((p) => p.exchange),
        ],
      ),
    ];
  },
});

const BAD_CURSOR = '!!not-a-cursor!!';

export const invalidCursor: CheckDefinition = defineCheck({
  id: 'page.server.invalid-32602',
  covers: ['page.server.invalid-cursor-graceful'],
  title: 'An invalid cursor is answered with a -32602 error',
  area: 'live-listing',
  sentences: fromRevision('2024-11-05', {
    ref: 'server/utilities/pagination#error-handling',
    text: 'Invalid cursors SHOULD result in an error with code -32602 (Invalid params).',
    keyword: 'SHOULD',
  }),
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    const walk = await ctx.tools();
    const exchange = await ctx.client.request('tools/list', { cursor: BAD_CURSOR });
    const error = errorOf(exchange.response);
    if (error?.code === ERR.invalidParams) return [pass('the invalid cursor was answered with -32602', [exchange])];
    if (resultOf(exchange.response) && walk.pages.length === 1) {
      return [pass('the server does not paginate and ignored the cursor (recorded; tolerated)', [exchange])];
    }
    const got = error
      ? `error ${String(error.code)}`
      : resultOf(exchange.response)
        ? 'a result (the cursor was ignored)'
        : 'no usable answer';
    return [
      fail(
        `tools/list with cursor ${JSON.stringify(BAD_CURSOR)} got ${got}`,
        'a JSON-RPC error with code -32602 (Invalid params)',
        [exchange],
      ),
    ];
  },
});

/** Tools called on the audit's own connection, not counting the unknown-name probes. */
function realCalls(ctx: Parameters<CheckDefinition['run']>[0], known: ReadonlySet<string>): number {
  let count = 0;
  for (const [name, times] of ctx.client.toolsCalled) if (known.has(name)) count += times;
  return count;
}

export const noSideEffectVariance: CheckDefinition = defineCheck({
  id: 'tools.list.no-connection-variance.after-calls',
  covers: ['tools.list.no-connection-variance'],
  title:
    'The tool set does not change as a side effect of tools/call on the connection (compared with a connection ' +
    'that made no tool call)',
  area: 'live-listing',
  sentences: { '2026-07-28': [TOOL_SET_SENTENCE] },
  needs: ['live', 'tool-call'],
  phase: 'final',
  prepare(ctx) {
    // Needed only when some tool will be called: without calls the check skips.
    ctx
      .tools()
      .then((walk) => {
        if (walk.tools.some((tool) => ctx.mayCall(tool))) ctx.prepareConnection(LISTING_ONLY);
      })
      .catch(() => undefined);
  },
  async run(ctx) {
    if (!ctx.canOpenConnections) return [skip('cannot open another connection to this target')];
    const first = await ctx.tools();
    if (first.stop.kind !== 'complete')
      return [skip('the first walk did not complete (see tools.list.respond / page.walk.terminates)')];
    const calls = realCalls(ctx, new Set(names(first)));
    if (calls === 0) return [skip(`no tool was called on the audit's connection (${ctx.callPolicy})`)];
    const [afterCalls, callFree] = await Promise.all([
      walkTools(ctx.client),
      ctx.sharedConnection(LISTING_ONLY).then(walkTools),
    ]);
    const again = await walkTools(ctx.client);
    if ([afterCalls, callFree, again].some((w) => w.stop.kind !== 'complete'))
      return [skip('a walk after the calls did not complete')];
    const mine = definitions(afterCalls);
    if (difference(mine, definitions(again)).length > 0) {
      return [skip("the tool set changed on the audit's connection while it was being compared (allowed over time)")];
    }
    const changedSinceStart = difference(definitions(first), mine);
    if (changedSinceStart.length === 0) {
      return [
        pass(
          `${calls} tools/call(s) left the connection's tool set as it was (per-connection differences are ` +
            `tools.list.no-connection-variance's)`,
        ),
      ];
    }
    const diff = difference(mine, definitions(callFree));
    if (diff.length === 0) {
      return [
        pass(
          `the set changed during the audit (${changedSinceStart.join(', ')}), for a connection that made no ` +
            `tool call too: a change over time, which is allowed`,
        ),
      ];
    }
    return [
      fail(
        `after ${calls} tools/call(s), the audit's connection lists a different set than a connection that ` +
          `made no tool call (${describeDifference(diff, ['the calling connection', 'the call-free connection'])}` +
          `)`,
        'the same set on the calling connection and on one that made no tool call: the set MAY change over ' +
          'time, but MUST NOT change as a side effect of other requests on the connection',
        [
          note(
            'difference (-: only on the calling connection, +: only on the call-free one, ~: defined differently)',
            diff,
          ),
          note(
            'change on the calling connection since its first walk (-: gone, +: new, ~: redefined)',
            changedSinceStart,
          ),
          ...afterCalls.pages.map((p) => p.exchange),
          ...callFree.pages.map((p) => p.exchange),
        ],
      ),
    ];
  },
});

/** A client name some servers might single out: a well-known host's. */
export const SPOOFED_CLIENT_INFO = { name: 'claude-ai', version: '1.0.0' };

export const clientInfoNeutral: CheckDefinition = defineCheck({
  id: 'meta.info.no-behavior',
  covers: ['meta.info.no-security'],
  title: 'The tool set does not depend on the clientInfo a request reports (another client name lists the same tools)',
  area: 'live-listing',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text:
          'Implementations SHOULD NOT use them to change the behavior of the client or server, and SHOULD NOT ' +
          'rely on them for security decisions.',
        keyword: 'SHOULD NOT',
      },
    ],
  },
  needs: ['live'],
  async run(ctx) {
    const first = await ctx.tools();
    if (first.stop.kind !== 'complete')
      return [skip('the first walk did not complete (see tools.list.respond / page.walk.terminates)')];
    const meta = { ...ctx.client.statelessMeta(), [META_CLIENT_INFO]: SPOOFED_CLIENT_INFO };
    const spoofed = await walkTools(ctx.client, first.pages.length + 1, { meta });
    if (spoofed.stop.kind !== 'complete')
      return [
        skip(
          `the walk reporting clientInfo ${JSON.stringify(SPOOFED_CLIENT_INFO)} did not complete (` +
            `${spoofed.stop.kind})`,
        ),
      ];
    const diff = difference(definitions(first), definitions(spoofed));
    if (diff.length === 0)
      return [
        pass(
          `reporting clientInfo ${JSON.stringify(SPOOFED_CLIENT_INFO)} lists the same ${first.tools.length} ` +
            `tool definitions`,
        ),
      ];
    return [
      fail(
        `reporting clientInfo ${JSON.stringify(SPOOFED_CLIENT_INFO)} instead of this tool's own changes the ` +
          `listing (${describeDifference(diff, ['this client', SPOOFED_CLIENT_INFO.name])})`,
        'the same tools whatever clientInfo says: it is self-reported and unverified, fit for display and logs only',
        [
          note('difference (-: only for this client, +: only for the other name, ~: defined differently)', diff),
          ...spoofed.pages.map((p) => p.exchange),
        ],
      ),
    ];
  },
});

/** The tools of each answered tools/list page, by the cursor it was asked with (the first page has none). */
function pagesByCursor(exchanges: readonly Exchange[]): Map<string, { exchange: Exchange; answer: string }[]> {
  const map = new Map<string, { exchange: Exchange; answer: string }[]>();
  for (const exchange of exchanges) {
    if (methodOf(exchange) !== 'tools/list' || !isObject(exchange.request) || !isObject(exchange.request.params))
      continue;
    const cursor = exchange.request.params.cursor;
    if (typeof cursor !== 'string' || cursor === BAD_CURSOR) continue;
    const result = resultOf(exchange.response);
    const answer =
      result && Array.isArray(result.tools)
        ? result.tools
            .map((t) => (isObject(t) ? String(t.name) : '?'))
            .sort()
            .join(', ')
        : `error ${String(errorOf(exchange.response)?.code ?? exchange.failure?.kind)}`;
    const list = map.get(cursor) ?? [];
    list.push({ exchange, answer });
    map.set(cursor, list);
  }
  return map;
}

export const stableCursors: CheckDefinition = defineCheck({
  id: 'page.server.stable-cursors',
  title: 'A cursor asked for again still gives a page, as it did the first time',
  area: 'live-listing',
  sentences: fromRevision('2024-11-05', {
    ref: 'server/utilities/pagination#implementation-guidelines',
    text: 'Servers SHOULD: Provide stable cursors',
    keyword: 'SHOULD',
  }),
  needs: ['live'],
  phase: 'final',
  run(ctx) {
    const reused = [...pagesByCursor(ctx.exchanges())].filter(([, answers]) => answers.length > 1);
    if (reused.length === 0)
      return [
        skip(
          'no cursor was asked for twice in this audit (the server hands out new cursors on every walk, or ' +
            'lists a single page)',
        ),
      ];
    // Which tools a page holds may change with the set (over time, per reported client): only a cursor that stops
    // working at all is unstable.
    const refused = (a: { answer: string }) => a.answer.startsWith('error ');
    const unstable = reused.filter(([, answers]) => !refused(answers[0]!) && answers.some(refused));
    if (unstable.length === 0)
      return [pass(`${reused.length} cursor(s) asked for more than once, each answered with a page every time`)];
    const [cursor, answers] = unstable[0]!;
    const other = answers.find(refused)!;
    return [
      fail(
        `the cursor ${JSON.stringify(cursor).slice(0, 80)} gave ${answers[0]!.answer.slice(0, 120)} the first ` +
          `time and ${other.answer.slice(0, 120)} later`,
        'a page for a cursor asked for again, as the first time (a cursor stays usable)',
        [answers[0]!.exchange, other.exchange],
      ),
    ];
  },
});

export const LIVE_LISTING_CHECKS = [
  deterministicOrder,
  connectionInvariance,
  invalidCursor,
  noSideEffectVariance,
  clientInfoNeutral,
  stableCursors,
] as const;
