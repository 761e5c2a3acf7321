import type { CatalogRow, CoverageKind, CoverageRow } from './coverage-notes.js';
import { CLIENT_ROW_REASONS } from './client-row-reasons.js';

const NO_LISTEN =
  'planned: the listen scenario opens one subscription and acknowledges everything it asked for; judging this ' +
  'needs a narrowed acknowledgment, a second subscription or a broken transport';
const NO_PROBE_FALLBACK =
  'planned: a dual-era client probes and falls back; judging that needs a scripted server that answers ' +
  'server/discover as an earlier server would (an error, an empty 400), one answer per run. The scripted ' +
  'server of the earlier revisions serves a client that opens with initialize, and does not answer a probe ' +
  'that way yet';

/** Why a client-side catalog requirement has no client check of its own (or how it is covered otherwise). */
export const CLIENT_COVERAGE_NOTES: Readonly<Record<string, string>> = {
  'base.resulttype.absent-complete':
    'not judged: schema.ts scopes it to "a result from a server implementing an earlier protocol version", and ' +
    'the scripted server speaks 2026-07-28, where servers MUST include resultType; a 2026-07-28 client that ' +
    'refuses such a result breaks nothing',
  'tools.name.aggregator-disambiguate': 'needs several servers at once; client mode offers one',
  'tools.name.no-serverinfo-disambiguation': 'needs several servers at once; client mode offers one',
  'xmcp.client.log-warning':
    "not judged: a driver's stderr is free-form, so a warning cannot be told from other output without a " +
    'format the driver contract does not impose',
  'page.client.no-fixed-size':
    'exercised: the three pages differ in size, and a client that assumed one size would stop early, which ' +
    'page.client.both-flows (a SHOULD: it cannot tell an assumed size from other reasons to stop) and ' +
    'page.client.empty-cursor show',
  'page.client.missing-end':
    'exercised: the last page has no nextCursor, and a client that went on would ask with a cursor never ' +
    'issued (page.client.opaque)',
  'elicit.client.declare':
    'the scripted server asks only through a capability the request declared (elicitation, else roots); what a ' +
    'client that supports elicitation leaves undeclared is invisible',
  'http.client.reissue-new-id':
    'not judged: its MUST is stated only in the changelog (major change 9), not on the Streamable HTTP page, ' +
    'and whether a client must re-issue a non-idempotent tools/call by itself is unclear (requirements §6)',
  'subs.client.check-ack': NO_LISTEN,
  'subs.client.stdio-correlate': NO_LISTEN,
  'subs.client.stdio-resubscribe': NO_LISTEN,
  'stdio.compat.probe': NO_PROBE_FALLBACK,
  'stdio.compat.fallback-not-code': NO_PROBE_FALLBACK,
  'stdio.compat.no-initialize-on-modern-error': NO_PROBE_FALLBACK,
  'version.client-select': NO_PROBE_FALLBACK,
  ...CLIENT_ROW_REASONS,
};

/** How one client-side catalog requirement is covered by client mode. */
export function clientCoverageOf(row: CatalogRow, checksCovering: readonly string[]): CoverageRow {
  const base = { id: row.id, keyword: row.keyword, section: row.section };
  if (checksCovering.length > 0)
    return { ...base, kind: 'check', text: checksCovering.map((c) => `\`${c}\``).join(', ') };
  const note = CLIENT_COVERAGE_NOTES[row.id];
  if (note) return { ...base, kind: note.startsWith('planned') ? 'planned' : 'note', text: note };
  if (row.testability.startsWith('untestable')) {
    return {
      ...base,
      kind: 'untestable',
      text:
        `not testable from outside: ` +
        `${row.testability.replace(/^untestable[^:]*:?\s*/, '') || 'no observable behaviour'}`,
    };
  }
  if (row.keyword === 'MAY')
    return { ...base, kind: 'permission', text: 'a permission (MAY): there is nothing a client can fail' };
  return { ...base, kind: 'planned' as CoverageKind, text: 'planned: no scenario offers what it needs yet' };
}

/**
 * The catalog rows client mode answers for: those that bind clients, and those binding both sides a client can be
 * tested on.
 */
export const isClientRow = (row: CatalogRow): boolean =>
  row.role === 'client' || (row.role === 'both' && row.testability.includes('client-blackbox'));
