import { revisionsOf } from '../model/check.js';
import type { CheckDefinition } from '../runner/types.js';
import type { ClientCheckDefinition } from '../client-mode/audit/check.js';
import { coverageOf, type CatalogRow, type CoverageKind, type CoverageRow } from './coverage-notes.js';
import { clientCoverageOf, isClientRow } from './client-coverage.js';

import { specUrl } from '../spec-links.js';
import { REVISIONS } from '../core/revision.js';
import { acrossRevisions, DIFFERS, sentenceCells } from './sentence-columns.js';

export interface DefectRef {
  name: string;
  breaks: string | null;
}

/**
 * Client mode's checks and the reference-client defects that prove them (each defect names its check per transport).
 */
export interface ClientSide {
  checks: readonly ClientCheckDefinition[];
  defects: readonly { name: string; checks: readonly string[] }[];
}

/** CONFORMANCE.md: the requirement → check matrix, generated from the registry (npm run conformance-md). */
const KIND_LABEL: Record<CoverageKind, string> = {
  check: 'checked',
  note: 'see note',
  planned: 'planned',
  permission: 'permission',
  untestable: 'untestable',
  'client-side': 'client side',
};

function requirementMatrix(checks: readonly CheckDefinition[], catalog: readonly CatalogRow[]): string[] {
  const serverSide = catalog.filter((r) => r.role === 'server' || r.role === 'both');
  const rows = serverSide.map((r) =>
    coverageOf(
      r,
      checks.filter((c) => c.id === r.id || c.covers?.includes(r.id)).map((c) => c.id),
    ),
  );
  const count = (kind: CoverageKind) => rows.filter((r) => r.kind === kind).length;
  const lines = [
    '## Requirement coverage',
    '',
    `The requirement catalog has ${catalog.length} rows; ${serverSide.length} bind servers (role server or ` +
      `both) and are listed below.`,
    `The other ${catalog.length - serverSide.length} bind clients, intermediaries or the spec process; client ` +
      `mode answers for the client rows (see Client mode below).`,
    '',
    '| Coverage | Requirements |',
    '| --- | --- |',
    ...(['check', 'note', 'planned', 'permission', 'untestable', 'client-side'] as const).map(
      (k) => `| ${KIND_LABEL[k]} | ${count(k)} |`,
    ),
    '',
  ];
  return [...lines, ...coverageTables(rows)];
}

function coverageTables(rows: readonly CoverageRow[]): string[] {
  const lines: string[] = [];
  const bySection = new Map<string, CoverageRow[]>();
  for (const row of rows) bySection.set(row.section, [...(bySection.get(row.section) ?? []), row]);
  for (const [section, list] of bySection) {
    lines.push(
      `### ${section}`,
      '',
      '| Requirement | Keyword | Coverage | Checked by, or why not |',
      '| --- | --- | --- | --- |',
    );
    for (const r of list)
      lines.push(`| \`${r.id}\` | ${r.keyword} | ${KIND_LABEL[r.kind]} | ${r.text.replace(/\|/g, '\\|')} |`);
    lines.push('');
  }
  return lines;
}

/**
 * Client mode: its checks by area, with the reference-client defect that proves each, and the client rows' coverage.
 */
function clientSection(client: ClientSide, catalog: readonly CatalogRow[]): string[] {
  const lines = [
    '## Client mode',
    '',
    `${client.checks.length} client checks (\`mcp-tools-conformance client\`, docs/client-mode.md), judged on ` +
      `what the scripted server saw, on the`,
    'revision the client spoke (2026-07-28, or the one its `initialize` offered: a check runs on the revisions ' +
      'whose sentences',
    'it quotes); each is proven by a defect of the reference client that it catches alone ' +
      '(test/client-defects.test.ts; the',
    'defects of the initialize wire run the reference client with `--protocol-version 2025-11-25`).',
    '',
    '| Requirement | Keyword | Check | Scenario | Transport | The sentence it enforces | Proven by defect |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of client.checks) {
    const proof =
      client.defects
        .filter((d) => d.checks.includes(c.id))
        .map((d) => `\`${d.name}\``)
        .join(', ') || '—';
    lines.push(
      `| \`${c.id}\` | ${c.keyword} | ${cell(c.title)} | ${c.scenario} | ${c.transport ?? 'both'} | ` +
        `${sentencesCell(c)} | ${proof} |`,
    );
  }
  const rows = catalog.filter(isClientRow).map((r) =>
    clientCoverageOf(
      r,
      client.checks.filter((c) => c.id === r.id || c.covers?.includes(r.id)).map((c) => c.id),
    ),
  );
  const count = (kind: CoverageKind) => rows.filter((r) => r.kind === kind).length;
  lines.push(
    '',
    '### Client requirement coverage',
    '',
    `${rows.length} catalog rows bind clients (role client, or both where a client can be tested).`,
    '',
    '| Coverage | Requirements |',
    '| --- | --- |',
    ...(['check', 'note', 'planned', 'permission', 'untestable'] as const).map(
      (k) => `| ${KIND_LABEL[k]} | ${count(k)} |`,
    ),
    '',
    ...coverageTables(rows).map((line) => (line.startsWith('### ') ? `#${line}` : line)),
  );
  return lines;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Every sentence a check enforces, wire by wire, with its keyword and a link into that revision. */
function sentencesCell(check: Pick<CheckDefinition, 'sentences'>): string {
  return revisionsOf(check)
    .map((wire) => {
      const quotes = (check.sentences[wire] ?? []).map(
        (s) => `${s.keyword}, [${s.ref}](${specUrl(s.ref, wire)}): “${cell(s.text)}”`,
      );
      return `**${wire}**: ${quotes.join('; ') || 'no sentence'}`;
    })
    .join('<br>');
}

export function renderConformance(
  checks: readonly CheckDefinition[],
  defects: readonly DefectRef[],
  catalog: readonly CatalogRow[],
  client: ClientSide,
): string {
  const byArea = new Map<string, CheckDefinition[]>();
  for (const check of checks) byArea.set(check.area, [...(byArea.get(check.area) ?? []), check]);
  const proof = (id: string) =>
    defects
      .filter((d) => d.breaks === id)
      .map((d) => `\`${d.name}\``)
      .join(', ') || '—';
  const lines = [
    '# Conformance matrix',
    '',
    '<!-- Generated by `npm run conformance-md` from the check registry; a test fails when it is out of date. ' +
      'Do not edit by hand. -->',
    '',
    `${checks.length} checks. Each row is one requirement (IDs from the team's requirements catalog), the ` +
      `check that covers it, the`,
    "sentences it enforces in each revision, one column per revision (verbatim, from that revision's pages or " +
      'schema.json; `—` where the',
    'revision has none, so the check does not run there; "same as" where they are exactly those of a newer ' +
      'revision), and the',
    'reference-server defect that proves the check can fail. A check runs only on the revisions that have a ' +
      'sentence for it.',
    `The column "Across revisions" marks with ${DIFFERS} the rows whose sentences are not the same in every ` +
      `revision, and says what differs:`,
    'where the check applies, its keyword class (a fail in one revision, a warn in another), or the wording.',
    `${checks.filter((c) => acrossRevisions(c) !== '').length} of the ${checks.length} rows differ.`,
    'A `fail` stands only on a MUST, MUST NOT, REQUIRED or SHALL sentence, or on a structural rule of ' +
      'schema.json; a SHOULD or RECOMMENDED',
    'sentence makes a `warn`; descriptive text and a lower-case "should" in a schema.json description warn at ' +
      'most, and say so.',
    '',
  ];
  for (const [area, list] of byArea) {
    lines.push(
      `## ${area}`,
      '',
      `| Requirement | Keyword | Check | Needs | Across revisions | ${REVISIONS.join(' | ')} | Proven by defect |`,
      `| --- | --- | --- | --- | --- | ${REVISIONS.map(() => '---').join(' | ')} | --- |`,
    );
    for (const c of list) {
      lines.push(
        `| \`${c.id}\` | ${c.keyword} | ${cell(c.title)} | ${c.needs?.join(', ') ?? '—'} | ` +
          `${acrossRevisions(c)} | ${sentenceCells(c).join(' | ')} | ${proof(c.id)} |`,
      );
    }
    lines.push('');
  }
  lines.push(...requirementMatrix(checks, catalog));
  lines.push(...clientSection(client, catalog), '');
  lines.push(
    '## Positions taken',
    '',
    '- **Schema issues are reported once.** Every received result is validated once against our wire schema ' +
      'for its method; each schema issue is attributed to the most',
    '  specific requirement that covers it (for example a missing `ttlMs` to `cache.server.hints`), and ' +
      'whatever no specific check owns goes to `schema.result.valid`.',
    '- **Wire schemas per revision.** That schema is the one of the revision the server agreed, transcribed ' +
      'from its schema.json and compared with it rule by rule',
    '  (`src/schema/wire/spec-sync.test.ts`). It departs knowingly where JSON-RPC 2.0 says more: a response ' +
      'carries a result or an error, never both, and answers',
    '  an unreadable request with a null id. `Annotations.lastModified` is held to be a string only: ' +
      'schema.json gives it no format (ISO 8601 is a lower-case should).',
    '- **`server/discover` on `tools.cap.declare`.** On the initialize revisions the capabilities come from ' +
      '`InitializeResult`.',
    '- **The npm servers judged on the revision they agreed** (`test/real-servers.test.ts` asserts their exact ' +
      'findings). Judged on 2025-11-25 instead of',
    "  under 2026-07-28 rules, they keep warnings only: `jsonschema.dialect.recommended` (zod's draft-07 " +
      'schemas), `tools.err.unknown-tool` (an unknown',
    '  tool answered with an isError result: 2025-11-25 describes a JSON-RPC error without a keyword, so a ' +
      "warning labelled descriptive), server-filesystem's",
    '  `tools.result.structured-text-mirror` (SHOULD), and, new since the logging checks quote their ' +
      '2025-11-25 sentences,',
    "  server-everything's `log.invalid-level` (its SDK v1 answers `logging/setLevel` with an unknown level " +
      'with -32603, where logging § Error Handling',
    '  says servers SHOULD return -32602).',
    '- **The official Python SDK (`mcp` 2.3), server and client** (`test/real-servers.test.ts`, ' +
      '`test/client-mode.test.ts`). A pydantic-style MCPServer',
    '  passes every MUST on 2026-07-28. On the `initialize` revisions it fails two, each quoted from the ' +
      'agreed revision: `log.capability-declared`',
    '  (`ctx.info()` logs while InitializeResult declares no `logging`) and, on 2025-06-18 and 2025-11-25, ' +
      '`lifecycle.capabilities.negotiated`',
    '  (`ctx.elicit()` sends elicitation/create to a client that declared only roots; SHOULD before ' +
      '2025-06-18). On 2025-03-26 its refusal of a batch fails',
    '  `base.batch.receive`. Its client fails `base.resulttype.unknown-invalid` and ' +
      '`jsonschema.impl.unsupported-dialect` on 2026-07-28, and',
    '  `http.session.new-after-404` on 2025-11-25 over HTTP, as both TypeScript SDKs do.',
    '- **Era probe.** `--protocol-version auto` probes with `server/discover`; a DiscoverResult or a modern ' +
      'error (-32020/-32021/-32022) means 2026-07-28, anything else falls back to',
    '  `initialize`. When `initialize` is rejected as well, the target is audited as a 2026-07-28 server whose ' +
      'discovery is broken, so `discover.must-implement` can report it.',
    '- **`page.walk.terminates`** is an inference, so a warning: pagination describes `nextCursor` as present ' +
      '"if more results exist", and a `nextCursor`',
    '  that repeats an earlier cursor makes the rest of the set unreachable; no sentence forbids the loop in ' +
      'so many words.',
    '- **Tool-set consistency on 2025-11-25.** `tools.list.deterministic-order`, ' +
      '`tools.list.no-connection-variance` and its `.after-calls` refinement',
    '  rest on 2026-07-28 server/tools § Capabilities; 2025-11-25 has no such text (a session may have its own ' +
      'tool set), so they skip on that wire.',
    '- **`supportedVersions`.** Its presence and type are schema.json rules (`schema.result.valid`); that it ' +
      'lists the version just served is an',
    '  inference from "Protocol versions the server supports", a warning (`discover.supported-versions`).',
    '- **`ttlMs`** must be an integer (schema.json types it `integer`, minimum 0), see requirements §6.6.',
    '- **Tool-definition schema issues** go to the most specific check: anything under `inputSchema` (or its ' +
      'absence) to `tools.schema.input-valid-object`,',
    '  `annotations` to `tools.annotations.types`, `icons` to `icons.shape`, the rest of a tool object to ' +
      '`tools.tool.shape`, which reports one result',
    '  per tool and rule broken, quoting that schema.json rule (`Tool/properties/title/type`, ' +
      '`MetaObject/type`, `ToolExecution/…` on 2025-11-25; under',
    '  `definitions` before 2025-11-25, where a tool has no title, outputSchema or _meta until 2025-06-18).',
    '- **A missing `description`** is a warning (`tools.tool.description`), never a failure: the schema makes ' +
      'it optional (requirements §6.14).',
    '- **Dialects.** A schema without `$schema` is 2020-12. 2020-12, 2019-09, draft-07, draft-06 and draft-04 ' +
      'schemas are validated against the',
    "  official meta-schema of their dialect (json-schema.org), not ajv's stricter copies: ajv adds `minItems: " +
      '1` and `uniqueItems: true` to `enum` in',
    '  draft-06/07 (corrected in code, `src/schema/tool-schema/official-meta-schemas.ts`). Unknown dialects ' +
      'are reported as a skip that names the',
    '  dialect, never validated under another one; values are not validated against draft-04 schemas (a skip ' +
      'that says so). Declaring anything',
    '  but 2020-12 is a `jsonschema.dialect.recommended` warning (basic/index: "Implementors are RECOMMENDED ' +
      'to use JSON Schema 2020-12"); servers',
    '  built on the v1 SDK (zod to draft-07) get this warning.',
    '- **An empty or repeating `enum`** is valid under the meta-schemas of draft-06 and later, whose text says ' +
      '"This array SHOULD have at least one',
    '  element. Elements in the array SHOULD be unique." `jsonschema.valid.input/.output` warn with that text, ' +
      "resting on basic/index's descriptive",
    '  "The Model Context Protocol uses JSON Schema for validation throughout the protocol." (the JSON Schema ' +
      'sentence is on no MCP page). draft-04',
    '  makes both a MUST, and its meta-schema rejects them. Arguments for a property whose `enum` is empty are ' +
      'never valid: the tool is a skip that says so.',
    '- **`format` is an annotation.** JSON Schema 2020-12 (the default dialect) and 2019-09 assert `format` ' +
      'only under the format-assertion',
    '  vocabulary, which their standard meta-schemas do not declare; draft-06/07 leave assertion to the ' +
      'validator. A value is valid when it is valid',
    '  with formats as annotations; where a validator asserting formats would judge otherwise (a naive ' +
      '`"2026-01-01T10:00:00"` under `format:',
    '  "date-time"`, as the official Python SDK returns for a pydantic `datetime`; or a format that decides ' +
      'which `oneOf` branch matches), the',
    '  verdict never fails: `tools.output.conform(.property)` warn, naming the format and the value, resting ' +
      'on server/tools\' descriptive "Providing',
    '  an output schema helps clients … by: … Enabling strict schema validation of responses". A mutation that ' +
      'breaks only a format is no invalid',
    '  argument; generated valid arguments are well-formed for their formats wherever the other keywords ' +
      'allow. The reference client accepts a',
    '  format-only mismatch.',
    '- **`$ref`.** Nothing is ever fetched or read. Same-document pointers and anchors (including ones under ' +
      'an embedded `$id`) must resolve',
    '  (`jsonschema.ref.resolves`, a warning labelled descriptive: no sentence requires it, but a dangling ref ' +
      'makes the schema unusable for the validation',
    '  MCP uses JSON Schema for). Network, file, relative and other URIs are a warning ' +
      '(`jsonschema.ref.external`): clients do not fetch them by default',
    '  and schemas whose external `$ref` cannot be resolved SHOULD be rejected, so the tool is unusable for ' +
      'conforming clients.',
    '- **Regular expressions.** `format` in the meta-schemas is an annotation: ' +
      '`jsonschema.valid.input/.output` never judge the regular expression of a `pattern`. A `pattern`',
    '  or `patternProperties` key that ECMA-262 (a JavaScript RegExp with the `u` flag) cannot compile, such ' +
      "as Python's `\\Z` or `(?P<name>…)`, is a",
    '  `jsonschema.pattern.ecma` warning labelled descriptive (the MCP pages only say the default dialect is ' +
      '2020-12; the ECMA-262 SHOULD is',
    "  JSON Schema's own). Arguments are not generated for such a tool (a skip that names the pattern).",
    '- **x-mcp-header value rules** are reported once per value, in this order: not a string or empty → ' +
      '`xmcp.value.non-empty` (a non-string is',
    '  `xmcp.value.token`); a control character → `xmcp.value.no-ctl`; any other non-tchar → `xmcp.value.token`.',
    "- **x-mcp-header target types.** The annotated parameter's type is read through the same document, never " +
      'fetched: `$ref` to a same-document',
    '  pointer (`$defs`, `definitions`; draft-07 ignores the keywords next to it), `allOf` (every branch ' +
      'holds), `anyOf`/`oneOf` (one branch holds),',
    '  `type` arrays, and the types an `enum` or `const` implies. `null` among the types is allowed: a null ' +
      'value omits the header (streamable-http:',
    '  "Parameter value is `null` | Client MUST omit the header"), so pydantic\'s `Optional[str]` (`anyOf` of ' +
      'string and null), an Enum class (`$ref` into',
    "  `$defs`) and zod's `.nullable()` pass. `xmcp.target.primitive` fails when the parameter accepts " +
      '`number`, `object` or `array` (or only null).',
    '  When the type stays undecided (no type at all, string or integer, a `$ref` that is missing or leaves ' +
      'the document, nesting deeper than 16',
    '  levels) it warns, labelled descriptive ("placed directly within the JSON Schema of the property"): the ' +
      'spec does not say how a client decides',
    "  the type, and clients that read only the annotated schema's own `type` reject the tool (the official " +
      'SDK clients, TypeScript 2.4.0 and',
    '  Python 2.3.0, leave it out of `tools/list`; the Python server refuses it at registration). Those ' +
      'clients also reject `["string","null"]`',
    "  (what SDK v2 writes for zod's `.nullable()`) and the pydantic forms above; the spec expects null values " +
      'of annotated parameters, so these pass.',
    '- **x-mcp-header integers** (`xmcp.target.int-safe-range`). The MUST ("Integer values MUST be within the ' +
      'safe range …") constrains values, which',
    '  a static schema cannot show being sent. So a schema that only admits unsafe integers (`minimum` above ' +
      '2^53−1, `maximum` below −(2^53−1), exclusive',
    '  bounds alike) or names one (`const`, an `enum` value its own bounds admit) fails; a schema that merely ' +
      'admits them, an unbounded integer and',
    '  `maximum: 2^60` alike, warns under the numeric comparison SHOULD of streamable-http § Server ' +
      'Validation, since integers beyond 2^53−1 are not',
    '  exact as IEEE754 doubles. zod 4 writes safe bounds for `.int()`; pydantic `int` and zod 3 do not (the ' +
      'spec defines no runtime behaviour for',
    '  out-of-range values, requirements §6).',
    '- **x-mcp-header reachability.** Only a pure chain `/properties/a(/properties/b)*` from the root is ' +
      'statically reachable; an annotation anywhere',
    '  else (under `items`, composition, conditionals, `$ref`/`$defs`, `additionalProperties`, ' +
      '`patternProperties`, or on the root) fails `xmcp.target.static-reach`.',
    '  Schemas are walked by keyword position: a property may be named `x-mcp-header`, `default`, `enum`, ' +
      '`const` or `examples`, and the values of',
    '  data keywords (`const`, `enum`, `default`, `examples`, vendor keywords) are never read as schemas.',
    '- **Sensitive header parameters** are a heuristic warning: the property name, header name or title ' +
      'contains a word such as password, secret,',
    '  token, api key, authorization, credential, cookie, session, email or phone (split on camelCase and ' +
      'separators, so `max_tokens` is not flagged).',
    '- **Annotations are hints.** `tools.annotations.types` only checks their types; this tool never trusts ' +
      'them beyond choosing what is safe to call.',
    '- **Icons.** `src` must be an absolute URI (`icons.shape`). basic/index says `src` can be an HTTP/HTTPS ' +
      'URL or a `data:` URI, so `http:` passes;',
    '  other schemes (`javascript:`, `file:`, …) are a warning (`icons.safe-scheme`, descriptive): the ' +
      'HTTPS-or-data and unsafe-scheme rules bind',
    '  clients, which MUST reject such icons, so they never show.',
    '- **Unknown tools** answered with a result, not a JSON-RPC error, are a warning ' +
      '(`tools.err.unknown-tool`): server/tools § Error Handling',
    '  only describes protocol errors as "returned as standard JSON-RPC errors", and schema.json\'s `isError` ' +
      'description says "should" in lower',
    '  case. Many SDKs (the TypeScript SDK v1 `McpServer`) answer an unknown tool with `isError`. Any error ' +
      'code passes; a code other than',
    '  -32602 (the spec example) is noted in the message. Malformed `tools/call` params are judged the same ' +
      'way (`tools.err.protocol-errors`;',
    '  before 2025-11-25 the page lists "Invalid arguments", not malformed requests, among protocol errors). A ' +
      'case-swapped name is sent only',
    '  from 2025-11-25 on, where "Tool names SHOULD be considered case-sensitive"; earlier revisions say ' +
      'nothing of case.',
    '- **Invalid arguments** (targeted mutations of schema-valid arguments: one per kind, at most two per ' +
      'tool, of the scripted sample; `--runs`',
    '  cases per tool in the search) rest on "Servers MUST: Validate all tool inputs" (server/tools § Security ' +
      'Considerations, every revision), and',
    '  `tools.err.execution-errors` and its `.property` counterpart judge each answer the same way:',
    '  - a success fails when the value was used unchecked. What a validator looser than the schema explains ' +
      'warns instead, resting on a',
    '    descriptive sentence: an undeclared property (under `additionalProperties: false`) accepted when the ' +
      'answer names it and says, in words',
    '    of its own, that it was set aside ("ignored", "not supported", "unknown", …) rests on § Error ' +
      'Handling ("Input validation errors … are',
    '    reported in tool results with isError: true"; before 2025-11-25, "Protocol Errors: … Invalid ' +
      'arguments … Tool Execution Errors: …',
    '    Invalid input data"); a wrong-type value that converts to the declared type and keeps its meaning (a ' +
      'number or',
    '    boolean into a string, a numeric string or a boolean into a number, "true"/"false" or 0/1 into a ' +
      "boolean: the scalar part of Ajv's",
    "    coerceTypes, what pydantic's lax mode and zod's `z.coerce` accept), and null on an optional " +
      'property (read as "not given", as',
    '    leaving it out is allowed), rest on "inputSchema: JSON Schema defining expected parameters". The ' +
      'first wrong type tried on a property',
    '    is one no coercion explains (an array or object for a string, a non-numeric string for a number), so ' +
      'a coercing validator is still',
    '    tested for type checking: `z.coerce.string()`, which accepts `[]` as `""`, fails. null on a required ' +
      'property fails: it cannot stand',
    '    for a value that must be given;',
    "  - a failure (an `isError` result, or a JSON-RPC error of any code: -32602, the 2026-07-28 schema's " +
      'InvalidParamsError, requirements',
    '    §6.1, and -32603 alike, noted in the message, since no sentence ranks one code above another; before ' +
      '2025-11-25 the tools page lists',
    '    invalid arguments among protocol errors, so a JSON-RPC error is the refusal it describes) is a ' +
      'refusal only when the schema-valid call the',
    '    mutation was made from (the scripted sample; in the search, the generated valid case) does not fail ' +
      'the same way: the same JSON-RPC',
    "    code and message, or the same `isError` text, compared lower-cased with the arguments' own names and " +
      'texts, and every run of digits,',
    '    blotted out (an error that echoes the path it could not open is still the same error). Otherwise the ' +
      'answer is not judged: a server',
    '    whose every call fails ("fetch failed") refuses nothing by failing. The search compares each way of ' +
      'failing once per tool. A tool',
    '    none of whose answers could be judged is a skip that quotes how its valid call failed; an ' +
      '`input_required` answer is not judged either.',
    "    A call the target never answers is the target's failure, as elsewhere.",
    '- **An answered `input_required` retry** that gets `input_required` again passes with a note (mrtr: ' +
      '"Servers MAY choose to return an',
    '  InputRequiredResult on multiple attempts"; our answers are synthetic); a JSON-RPC error warns, the ' +
      'complete result being only described.',
    '- **Valid arguments** answered with a JSON-RPC error warn under `tools.err.tool-errors-in-result` ' +
      '(SHOULD); -32021 is a legitimate answer.',
    '- **outputSchema conformance** is judged on successful (`isError` not true, `complete`) results only ' +
      '(requirements §6.12), from 2025-06-18',
    '  on (outputSchema and structuredContent arrived then; so did the text-mirror SHOULD and "Servers that ' +
      'use embedded resources SHOULD',
    '  implement the resources capability"). A schema without `$schema` is read as 2020-12; before 2025-11-25, ' +
      'which names no default dialect,',
    '  also as 2019-09 and draft-07 (where a `$ref` ignores its siblings): structuredContent they disagree on ' +
      'is a warning giving each',
    '  reading, never a failure, and arguments are probed as invalid only where every reading rejects them; a ' +
      'warning about `format` says so.',
    '- **List changed on the initialize revisions.** With `--list-changed-trigger`, `tools.listchanged.notify` ' +
      'calls the trigger on a fresh',
    '  session and waits for `notifications/tools/list_changed` on that session (there are no subscriptions ' +
      'before 2026-07-28): "servers that',
    '  declared the listChanged capability SHOULD send a notification". The other subscription checks, the ' +
      'MRTR checks, the statelessness',
    '  checks and the error-code ranges of basic/index have no counterpart before 2026-07-28 and skip. ' +
      '(2025-11-25 forbids elicitation',
    '  modes the client does not support, but the audit declares no elicitation there, so any elicitation ' +
      'request already fails',
    '  `lifecycle.capabilities.negotiated`.)',
    '- **A tool call that times out** is a slow tool, not a dead target: it is cancelled (stdio ' +
      '`notifications/cancelled`) and reported as a skip',
    '  for that tool. The property-based checks do the same: the first generated case that times out stops the ' +
      'search of that tool, as a skip',
    '  that shows the case (a hang and a long-running tool look alike from outside; raise --timeout to tell ' +
      'them apart).',
    '- **Silence after a cancellation** (`stdio.cancel.server-silence`) is judged from the moment the server ' +
      'shows it has read the',
    '  cancellation: it answers the request sent right behind it on the same ordered channel ' +
      '(`server/discover` on 2026-07-28, `ping` on',
    '  2025-11-25). An answer to the cancelled call, a progress notification for its token or, on 2026-07-28, ' +
      'a log message only it could',
    '  own that arrives after that answer is a finding. What arrives before it is not evidence: a server ' +
      'blocked in a synchronous tool writes',
    '  its answer before it can read the cancellation. When that request is not answered within 3 s, the ' +
      'cancellation is undecided (skip).',
    '- **Property-based checks** (`*.property`) apply the same oracle as the scripted call checks to `--runs` ' +
      'generated cases per tool; they are',
    '  refinements with their own IDs, so a server can pass the one-sample probe and still fail the search; a ' +
      'tool whose scripted sample already',
    '  breaks the rule is not searched (the scripted check reports it), so each violation is reported once. A ' +
      'response that is not a JSON-RPC',
    '  message, or a result that breaks its wire schema, is left to the wire checks (which judge every ' +
      'generated exchange), so no issue is',
    '  reported twice. A tool whose schema cannot be generated from (external `$ref`, unsupported dialect, ' +
      'unsatisfiable, values too large)',
    '  is a skip that says why. The default seed is fixed, so repeated audits of one server send the same ' +
      'cases. For valid arguments, -32020,',
    '  -32021 and -32022 are protocol-level answers judged by their own checks, not by the search.',
    '- **Unsupported versions are probed after valid requests on the same connection**; when such a request is ' +
      'served, the same request is',
    '  sent first on a fresh connection, and a -32022 there is reported as "checks the version once per ' +
      'connection" (basic/versioning: each',
    '  request is accepted or rejected independently; basic/index § Statelessness).',
    '- **One HTTP connection per client.** Each audit client keeps one keep-alive connection, so "another ' +
      'connection" in',
    '  `tools.list.no-connection-variance` is a new TCP connection (stdio: a new process). A change of the set ' +
      'on the first connection during',
    '  the audit makes that check skip (a change over time is allowed).',
    '- **Status codes are judged only on the right error**: `meta.req.missing-http-400`, `http.pv.unsupported` ' +
      'and `meta.caps.missing-http-400`',
    '  look at the status of answers that carried the right JSON-RPC error; a wrong error is the companion ' +
      "check's finding. On 2025-06-18 and",
    '  2025-11-25, which name no error code for an unsupported `MCP-Protocol-Version`, `http.pv.unsupported` ' +
      'judges the status of every answer.',
    '- **Error-code policy** (`err.*`) looks at every error the run received; -32002 is reported by ' +
      '`err.retired` only.',
    '- **Subscriptions** are examined only when the server declares `capabilities.tools.listChanged: true`. ' +
      '`subs.ack.first` waits up to',
    '  min(--timeout, 5 s) for the acknowledgement. On stdio, where every message shares one channel, a ' +
      'message belongs to a subscription when its',
    '  `subscriptionId` equals the listen id once both are written as strings; a tag of the wrong JSON type ' +
      '(`"7"` for `7`) is then reported',
    '  once, by `meta.notif.subscription-id`. `subs.ack.subset` states a descriptive sentence ("reflects the ' +
      'subset the server agreed to',
    '  honor"), so it warns rather than fails.',
    "- **Tool-set changes** cannot be caused from outside without the server's help: " +
      '`tools.listchanged.notify` and `subs.no-unrequested`',
    '  need `--list-changed-trigger <tool>` (and `--list-changed-args <json>`), a tool whose call changes the ' +
      'set. It is called twice on a fresh',
    '  connection (change, then undo) with one subscription that asked for `toolsListChanged` and one that ' +
      'asked only for `promptsListChanged`;',
    '  naming it is the permission to call it. Without it both checks skip and say so.',
    '- **Initialize revisions.** Rules that exist in 2025-11-25 (tool names, schemas and dialects, annotations, ' +
      'icons) run there too; `x-mcp-header` and',
    '  `$ref` network rules are new in 2026-07-28 and are skipped with that reason.',
    '- **Requests of the server.** On the `initialize` wire the audit declares the client capability `roots` ' +
      '(no `listChanged`), as hosts do, and',
    '  answers every request the server sends: `ping` with `{}`, `roots/list` with no roots (nothing of the ' +
      'machine is exposed), anything else',
    '  with -32601; at most 10,000 per connection. A request of a capability the audit did not declare ' +
      '(`sampling`, `elicitation`) fails',
    '  `lifecycle.capabilities.negotiated`. On 2026-07-28 none is answered (servers MUST NOT send them: ' +
      '`patterns.server-no-requests`); a request',
    '  of ours that then times out names the one the server may be waiting on.',
    '- **Header faults on `tools/call`** (`http.validate.missing-std`, `http.validate.mismatch`) are sent on a ' +
      'call of a listed tool the call',
    '  policy allows, with arguments its inputSchema accepts, so the verdict does not depend on whether the ' +
      'server looks the tool up first;',
    '  when no tool may be called, an unlisted name is used and a -32602 to that probe is left unjudged. ' +
      '`xmcp.server.*` and `enc.server.decode`',
    "  judge by -32020 alone: a -32602 or `isError` to the schema-valid sample is the tool's own validation, a " +
      'skip that says so.',
    '- **Compatibility SHOULDs** (`http.compat.*`) concern "a server that supports only this revision": they skip when',
    '  `DiscoverResult.supportedVersions` lists another version or an `initialize` for 2025-11-25 (on a ' +
      'connection of its own) succeeds.',
    '- **`_meta` fields of the wrong type** are not probed by `meta.req.*`: the MUST speaks of a request ' +
      '"missing any required field".',
    '',
  );
  return lines.join('\n');
}
