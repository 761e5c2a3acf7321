/** Why a server-side catalog requirement has no check of its own (or how it is covered otherwise). */
export const COVERAGE_NOTES: Readonly<Record<string, string>> = {
  'tools.schema.no-params-recommended': 'mixed-case "Recommended" is not a BCP 14 keyword (requirements §6.15); both forms are explicitly valid, so nothing is reported',
  'tools.name.case-sensitive':
    'static part: names that differ only by case are listed as information by tools.name.unique; the live part (a case-swapped name gets an unknown-tool error) is planned for the live-behaviour suite (#4)',
  'tools.result.structured-any-json': 'concerns tools/call results: planned for the live-behaviour suite (#4)',
  'jsonschema.dialect.support-2020-12': 'this tool validates 2020-12 (and 2019-09, draft-07, draft-06); a server\'s own validator is exercised by tools.err.tool-errors-in-result.property (generated valid arguments must not be rejected) and tools.err.execution-errors.property (generated invalid ones must be refused)',
  'jsonschema.impl.validate-by-dialect': 'this tool validates every schema under its declared dialect, never another (src/schema/tool-schema/meta.ts)',
  'jsonschema.impl.unsupported-dialect': 'this tool reports an unsupported dialect as a skip that names it, instead of validating under another dialect',
  'jsonschema.ref.no-network': 'this tool never dereferences any $ref (proven by src/schema/tool-schema/no-fetch.test.ts); a server\'s network refs are reported by jsonschema.ref.external',
  'jsonschema.ref.optin-default-off': 'this tool has no fetch mode at all',
  'jsonschema.ref.optin-safeguards': 'this tool has no fetch mode at all',
  'jsonschema.composition-bounds': 'this tool bounds schema depth (64), subschema count (10,000) and size (1 MiB) before analysing (src/schema/tool-schema/bounds.ts); schemas beyond them are skipped with the reason',
  'meta.key.reserved-prefix':
    'descriptive (no BCP 14 keyword), and official extensions define further io.modelcontextprotocol/ keys in their own documents, which no list here can keep complete: flagging keys under a reserved prefix would raise false alarms. Such keys are still held to the grammar by meta.key.prefix, meta.key.labels and meta.key.name',
  'meta.key.reverse-dns': 'a naming heuristic with many legitimate exceptions; not reported',
  'http.notif.202':
    'nothing to send: 2026-07-28 defines no client-to-server notification over Streamable HTTP (streamable-http § Sending Messages, Note: notifications/cancelled is stdio-only; on HTTP closing the response stream cancels). On the 2025-11-25 wire the rule covers notifications/initialized, but the reference server speaks 2026-07-28 only, so no defect could prove such a check can fail',
  'http.notif.reject-status': 'nothing to send: see http.notif.202',
  'cache.irr-no-hints': 'concerns input_required results of tools/call: planned for the live-behaviour suite (#4)',
  'mrtr.irr.value-types': 'concerns input_required results of tools/call: planned for the live-behaviour suite (#4)',
  'subs.server.graceful-response': 'a server ends a subscription on its own initiative (shutdown, its own limits); an auditor cannot cause that from outside',
  'subs.server.graceful-closure': 'a server ends a subscription on its own initiative (shutdown, its own limits); an auditor cannot cause that from outside',
  'subs.listen-result-meta': 'describes the graceful-closure response, which an auditor cannot cause (see subs.server.graceful-closure)',
  'base.res.result-field': 'a response without result or error fails base.jsonrpc',
};

export type CoverageKind = 'check' | 'note' | 'planned' | 'permission' | 'untestable' | 'client-side';

export interface CoverageRow {
  id: string;
  keyword: string;
  section: string;
  kind: CoverageKind;
  text: string;
}

export interface CatalogRow {
  id: string;
  keyword: string;
  role: string;
  section: string;
  testability: string;
}

/** How one server-side catalog requirement is covered. */
export function coverageOf(row: CatalogRow, checksCovering: readonly string[]): CoverageRow {
  const base = { id: row.id, keyword: row.keyword, section: row.section };
  if (checksCovering.length > 0) return { ...base, kind: 'check', text: checksCovering.map((c) => `\`${c}\``).join(', ') };
  const note = COVERAGE_NOTES[row.id];
  if (note) return { ...base, kind: note.startsWith('planned') || note.includes('planned for') ? 'planned' : 'note', text: note };
  if (row.testability.startsWith('untestable')) {
    return { ...base, kind: 'untestable', text: `not testable from outside: ${row.testability.replace(/^untestable[^:]*:?\s*/, '') || 'no observable behaviour'}` };
  }
  if (row.keyword === 'MAY') return { ...base, kind: 'permission', text: 'a permission (MAY): there is nothing a server can fail' };
  if (!/server-blackbox|static/.test(row.testability)) {
    return { ...base, kind: 'client-side', text: 'binds the consuming side of the exchange; not observable on a server' };
  }
  const plan = /property-based|fuzz/.test(row.testability) ? 'the property-based suite (#5)' : 'the live-behaviour suite (#4)';
  return { ...base, kind: 'planned', text: `planned for ${plan}` };
}
