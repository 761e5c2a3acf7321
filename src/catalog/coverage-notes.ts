/** Why a server-side catalog requirement has no check of its own (or how it is covered otherwise). */
export const COVERAGE_NOTES: Readonly<Record<string, string>> = {
  'tools.schema.no-params-recommended':
    'mixed-case "Recommended" is not a BCP 14 keyword (requirements §6.15); both forms are explicitly valid, ' +
    'so nothing is reported',
  'tools.name.case-sensitive':
    'static part: names that differ only by case are listed as information by tools.name.unique; the live part ' +
    '(a case-swapped name gets an unknown-tool error) is planned for the live-behaviour suite (#4)',
  'tools.result.structured-any-json':
    'describes what structuredContent may be (any JSON value conforming to the outputSchema): nothing a server ' +
    'can fail by itself; conformance to the outputSchema is judged by tools.output.conform',
  'jsonschema.dialect.support-2020-12':
    'this tool validates schemas of 2020-12 (and 2019-09, draft-07, draft-06, draft-04) against their official ' +
    "meta-schemas, and values against schemas of all but draft-04, with `format` as an annotation; a server's " +
    'own validator is exercised by tools.err.tool-errors-in-result.property (generated valid arguments must ' +
    'not be rejected) and tools.err.execution-errors.property (generated invalid ones must be refused)',
  'jsonschema.impl.validate-by-dialect':
    'this tool validates every schema under its declared dialect, never another (src/schema/tool-schema/meta.ts)',
  'jsonschema.impl.unsupported-dialect':
    'this tool reports an unsupported dialect as a skip that names it, instead of validating under another dialect',
  'jsonschema.ref.no-network':
    "this tool never dereferences any $ref (proven by src/schema/tool-schema/no-fetch.test.ts); a server's " +
    'network refs are reported by jsonschema.ref.external',
  'jsonschema.ref.optin-default-off': 'this tool has no fetch mode at all',
  'jsonschema.ref.optin-safeguards': 'this tool has no fetch mode at all',
  'jsonschema.composition-bounds':
    'this tool bounds schema depth (64), subschema count (10,000) and size (1 MiB) before analysing ' +
    '(src/schema/tool-schema/bounds.ts); schemas beyond them are skipped with the reason',
  'meta.key.reserved-prefix':
    'descriptive (no BCP 14 keyword), and official extensions define further io.modelcontextprotocol/ keys in ' +
    'their own documents, which no list here can keep complete: flagging keys under a reserved prefix would ' +
    'raise false alarms. Such keys are still held to the grammar by meta.key.prefix, meta.key.labels and ' +
    'meta.key.name',
  'meta.key.reverse-dns': 'a naming heuristic with many legitimate exceptions; not reported',
  'subs.server.graceful-response':
    'a server ends a subscription on its own initiative (shutdown, its own limits); an auditor cannot cause ' +
    'that from outside',
  'subs.server.graceful-closure':
    'a server ends a subscription on its own initiative (shutdown, its own limits); an auditor cannot cause ' +
    'that from outside',
  'subs.listen-result-meta':
    'describes the graceful-closure response, which an auditor cannot cause (see subs.server.graceful-closure)',
  'base.res.result-field': 'a response without result or error fails base.jsonrpc',
  'base.must-support-core':
    'an umbrella over the base protocol, versioning and message-pattern rows: each is judged by its own check ' +
    'in this table',
  'base.notif.no-id':
    "a message with a method and an id is, by JSON-RPC's definition, a request and not a notification: a " +
    'server sending one is reported by patterns.server-no-requests (2026-07-28); the notifications this tool ' +
    'sends never carry an id',
  'st.error.message-concise':
    'not reported: "a concise single sentence" is a judgement no rule can draw without false alarms (SDKs put ' +
    'validation details into message); every error message is shown in the evidence',
  'state.multi-conversation':
    'exercised by every audit: scripted calls to different tools overlap on one connection (--concurrency), ' +
    'and each answer is judged by the call checks, so a server that mixes requests up fails those',
  'state.explicit-ids':
    "which state a tool keeps, and under which handle, is the tool's own meaning: no generic probe tells a " +
    'handle from an ordinary argument. State the protocol itself carries across requests (MRTR requestState) ' +
    'is judged by mrtr.requeststate.untrusted and mrtr.requeststate.replay-binding',
  'mrtr.no-assume-retry':
    'exercised by every audit of a server with MRTR tools: the capability-less first calls and the ' +
    'elicitation: {} probes are abandoned without a retry, and every later check still needs answers, so a ' +
    'server that waits for the retry fails those (time-outs)',
  'http.endpoint.single':
    'every request of the audit is POSTed to the one URL given: a server that needs another path for some ' +
    'method fails the checks of that method',
  'http.bind-localhost':
    'the audit talks only to the URL it is given (safe by default), so it never tries the other interfaces of ' +
    'the host: check which address the server listens on with `ss -ltnp` (or `netstat -an`) on that host',
  'http.cancel.close':
    'whether the server stops its work is not visible in what it sends: that needs a tool that reports its own ' +
    'progress through another call, which no generic server has. What is visible, nothing more for the request ' +
    'once the server has read the cancellation (no answer, progress or log message), is judged by ' +
    'stdio.cancel.server-silence; over HTTP the closed stream leaves the server no channel for that answer',
  'http.cancel.stop': 'not visible from outside: see http.cancel.close',
  'stdio.cancel.server-stop':
    'not visible from outside: see http.cancel.close; the message part of the same sentence is ' +
    'stdio.cancel.server-silence',
  'http.cancel.silence':
    "after the client closes a request's stream, a message for it could only appear on another stream: " +
    "progress for its token on another request's stream is reported by http.sse.related, a log message on a " +
    'listen stream by log.request-scoped',
  'cache.server.access-control':
    'needs two identities: the audit runs as one client with one set of --header credentials. To check it, ' +
    'snapshot the listing under each credential (`snapshot --header ...`) and call, with the second, a tool ' +
    'only the first may see',
  'cache.server.not-scope-alone': 'needs two identities: see cache.server.access-control',
  'cancel.server.listen-teardown':
    'a server tears a subscription down on its own initiative (shutdown, its own limits); an auditor cannot ' +
    'cause that from outside (see subs.server.graceful-closure). Any notifications/cancelled the server does ' +
    'send is held to cancel.server.no-other',
  'xmcp.server.numeric-compare':
    'planned: needs a callable tool with an integer x-mcp-header parameter; the reference server has none, so ' +
    'no defect could prove such a check yet (and a body of 42.0 cannot be written by JSON.stringify, which ' +
    'makes it 42)',
  'mrtr.irr.keys-unique':
    'planned: JSON.parse keeps only the last of duplicate keys, so a check must re-scan the raw text of ' +
    'input_required results, which the transports do not keep for every response',
  'http.sse.terminate':
    'planned: the HTTP transport stops reading an SSE stream at the response it waits for (so a stream left ' +
    'open never holds the audit up), and does not record whether the server ended it',
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
  if (checksCovering.length > 0)
    return { ...base, kind: 'check', text: checksCovering.map((c) => `\`${c}\``).join(', ') };
  const note = COVERAGE_NOTES[row.id];
  if (note)
    return {
      ...base,
      kind: note.startsWith('planned') || note.includes('planned for') ? 'planned' : 'note',
      text: note,
    };
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
    return { ...base, kind: 'permission', text: 'a permission (MAY): there is nothing a server can fail' };
  if (!/server-blackbox|static/.test(row.testability)) {
    return {
      ...base,
      kind: 'client-side',
      text: 'binds the consuming side of the exchange; not observable on a server',
    };
  }
  const plan = /property-based|fuzz/.test(row.testability)
    ? 'the property-based suite (#5)'
    : 'the live-behaviour suite (#4)';
  return { ...base, kind: 'planned', text: `planned for ${plan}` };
}
