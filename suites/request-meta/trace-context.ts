import { defineCheck } from '../kit/define-check.js';
import type { CheckDefinition } from '../kit/index.js';
import { serverMetaSites } from '../kit/meta-objects.js';
import { fail, note, pass, skip } from '../kit/outcome.js';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const TRACESTATE_KEY = /^(?:[a-z0-9][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})$/;
const TRACESTATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAGGAGE_VALUE = /^(?:[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]|%[0-9A-Fa-f]{2})*$/;

/** What is wrong with a `traceparent` value by W3C Trace Context (version, trace-id, parent-id, flags), if anything. */
export function traceparentProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `not a string but ${JSON.stringify(value)}`;
  const match = TRACEPARENT.exec(value);
  if (!match)
    return `${JSON.stringify(value)} is not version-traceid-parentid-flags in lower-case hex (2-32-16-2 digits)`;
  if (match[1] === 'ff') return 'version ff is invalid';
  if (/^0+$/.test(match[2]!)) return 'the trace-id is all zeros';
  if (/^0+$/.test(match[3]!)) return 'the parent-id is all zeros';
  return undefined;
}

/** `tracestate`: at most 32 comma-separated key=value members (W3C Trace Context). */
export function tracestateProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `not a string but ${JSON.stringify(value)}`;
  const members = value
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (members.length > 32) return `${members.length} list members (at most 32)`;
  const bad = members.find((m) => {
    const eq = m.indexOf('=');
    return eq <= 0 || !TRACESTATE_KEY.test(m.slice(0, eq)) || !TRACESTATE_VALUE.test(m.slice(eq + 1));
  });
  return bad === undefined ? undefined : `the member ${JSON.stringify(bad)} is not key=value`;
}

/**
 * `baggage`: comma-separated key=value members, each key a token, each value baggage octets or %-escapes (W3C Baggage).
 */
export function baggageProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `not a string but ${JSON.stringify(value)}`;
  const bad = value.split(',').find((member) => {
    const [pair] = member.split(';');
    const eq = pair!.indexOf('=');
    return eq <= 0 || !TOKEN.test(pair!.slice(0, eq).trim()) || !BAGGAGE_VALUE.test(pair!.slice(eq + 1).trim());
  });
  return bad === undefined ? undefined : `the member ${JSON.stringify(bad.trim())} is not key=value`;
}

const JUDGES: Readonly<Record<string, (value: unknown) => string | undefined>> = {
  traceparent: traceparentProblem,
  tracestate: tracestateProblem,
  baggage: baggageProblem,
};

export const traceContextFormat: CheckDefinition = defineCheck({
  id: 'meta.otel.format',
  title: '_meta traceparent, tracestate and baggage values follow W3C Trace Context and W3C Baggage',
  area: 'meta-keys',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text: 'When present, their values MUST follow W3C Trace Context and W3C Baggage formats respectively.',
        keyword: 'MUST',
      },
    ],
  },
  phase: 'final',
  run(ctx) {
    const found = serverMetaSites(ctx.exchanges(), ctx.strays()).flatMap((site) =>
      Object.keys(JUDGES)
        .filter((key) => key in site.meta)
        .map((key) => ({ site, key, problem: JUDGES[key]!(site.meta[key]) })),
    );
    if (found.length === 0) return [skip('no _meta the server sent carried traceparent, tracestate or baggage')];
    const bad = found.filter((f) => f.problem !== undefined);
    if (bad.length === 0)
      return [pass(`${found.length} trace context value(s) in the server's _meta, each well-formed`)];
    return [
      fail(
        `${bad.length} trace context value(s) are malformed, e.g. ${bad[0]!.key} in the ${bad[0]!.site.where}: ` +
          `${bad[0]!.problem}`,
        'traceparent "00-<32 hex>-<16 hex>-<2 hex>" (not all zeros), tracestate and baggage as comma-separated ' +
          'key=value lists',
        [
          note(
            'malformed values',
            bad
              .slice(0, 5)
              .map((b) => ({ where: b.site.where, key: b.key, value: b.site.meta[b.key], problem: b.problem })),
          ),
          bad[0]!.site.evidence,
        ],
      ),
    ];
  },
});
