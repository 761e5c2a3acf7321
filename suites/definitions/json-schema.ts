import { defineCheck } from '../kit/define-check.js';
import {
  analyzeRefs,
  type CheckContext,
  type CheckDefinition,
  compareRevisions,
  describeIssues,
  dialectOf,
  ecmaRegExpProblem,
  ENUM_SHOULD_TEXT,
  enumAdvice,
  type EnumAdvice,
  findPatterns,
  isObject,
  type MetaVerdict,
  type Outcome,
  type RefInfo,
  shorten,
  type SpecSentence,
  type SpecSentences,
  SUPPORTED_DIALECTS,
  validateSchemaDocument,
  type Revision,
  REVISIONS,
} from '../kit/index.js';
import { listedTools, toolEvidence, type ListedTool } from '../kit/listed-tools.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { fromRevision, perRevision } from '../kit/same-sentences.js';

type Which = 'inputSchema' | 'outputSchema';

/** The tool schemas a revision defines: outputSchema arrived with 2025-06-18. */
function schemasOf(wire: Revision): Which[] {
  return compareRevisions(wire, '2025-06-18') >= 0 ? ['inputSchema', 'outputSchema'] : ['inputSchema'];
}

/** From 2025-11-25 on, a schema without `$schema` is 2020-12; earlier revisions name no default dialect. */
const hasDefaultDialect = (wire: Revision) => compareRevisions(wire, '2025-11-25') >= 0;

function schemaOf(t: ListedTool, which: Which): Record<string, unknown> | undefined {
  const schema = t.tool[which];
  return isObject(schema) ? schema : undefined;
}

/** One outcome per tool with a problem or a skip, plus a pass for the rest. */
async function eachSchema(
  ctx: CheckContext,
  which: Which,
  judge: (schema: Record<string, unknown>, t: ListedTool) => Omit<Outcome, 'tool'> | undefined,
  checked: string,
): Promise<Outcome[]> {
  const tools = (await listedTools(ctx)).filter((t) => schemaOf(t, which));
  if (tools.length === 0) return [skip(`no tool has an object ${which}`)];
  const outcomes: Outcome[] = [];
  let fine = 0;
  for (const t of tools) {
    const verdict = judge(schemaOf(t, which)!, t);
    if (verdict)
      outcomes.push({
        ...verdict,
        tool: t.label,
        evidence: verdict.evidence ?? (verdict.status === 'skip' ? undefined : toolEvidence(t)),
      });
    else fine += 1;
  }
  if (fine > 0) outcomes.unshift(pass(`${fine} ${checked} checked`));
  return outcomes;
}

/**
 * The meta-validation of a schema: under its declared dialect, else under 2020-12; on a revision without a default
 * dialect, an undeclared schema that 2020-12 rejects is valid when another dialect this tool knows accepts it.
 */
function metaVerdict(schema: Record<string, unknown>, wire: Revision): { verdict: MetaVerdict; anyDialect: boolean } {
  const verdict = validateSchemaDocument(schema);
  const anyDialect = !hasDefaultDialect(wire) && verdict.dialect.declared === undefined && verdict.dialect.supported;
  if (!anyDialect || !verdict.checked || verdict.issues.length === 0) return { verdict, anyDialect };
  for (const dialect of SUPPORTED_DIALECTS.filter((d) => d !== verdict.dialect.dialect)) {
    const other = validateSchemaDocument(schema, undefined, dialect);
    if (other.checked && other.issues.length === 0) return { verdict: other, anyDialect };
  }
  return { verdict, anyDialect };
}

function validity(which: Which): CheckDefinition['run'] {
  return (ctx) =>
    eachSchema(
      ctx,
      which,
      (schema) => {
        const { verdict, anyDialect } = metaVerdict(schema, ctx.revision);
        if (!verdict.checked) {
          return skip(
            `${which} not checked: ${verdict.skippedBecause ?? verdict.dialect.reason ?? 'unsupported dialect'}`,
          );
        }
        const dialect = verdict.dialect.dialect ?? 'its dialect';
        if (verdict.issues.length === 0) return enumWarning(which, dialect, enumAdvice(schema));
        if (anyDialect) {
          return fail(
            `${which} declares no $schema and is a valid JSON Schema in none of ` +
              `${SUPPORTED_DIALECTS.join(', ')} (${ctx.revision} names no default dialect); under ${dialect}: ` +
              `${describeIssues(verdict.issues)}`,
            'a schema valid in some JSON Schema dialect, best one that names it in $schema',
          );
        }
        return fail(
          `${which} is not a valid JSON Schema (${dialect}): ${describeIssues(verdict.issues)}`,
          `a schema valid against the ${dialect} meta-schema (the declared $schema, or 2020-12 when none is declared)`,
        );
      },
      `${which === 'inputSchema' ? 'input' : 'output'} schemas`,
    );
}

const MAX_LISTED_ENUMS = 5;

function describeAdvice(advice: EnumAdvice): string {
  if (advice.problem === 'empty') return `${advice.at} is empty (no value matches it)`;
  return `${advice.at} repeats ${advice
    .repeated!.slice(0, 3)
    .map((value) => shorten(JSON.stringify(value) ?? '', 40))
    .join(', ')}`;
}

/**
 * An empty or repeating `enum` is valid under the official meta-schemas of draft-06 and later, whose text only says
 * SHOULD; it warns resting on the MCP page's descriptive "uses JSON Schema for validation" (the JSON Schema sentence is
 * not on an MCP page, so the message quotes it). draft-04 requires both, and its meta-schema rejects them.
 */
function enumWarning(which: Which, dialect: string, advice: readonly EnumAdvice[]): Omit<Outcome, 'tool'> | undefined {
  if (advice.length === 0) return undefined;
  const listed =
    advice.slice(0, MAX_LISTED_ENUMS).map(describeAdvice).join('; ') + (advice.length > MAX_LISTED_ENUMS ? '; …' : '');
  return {
    status: 'warn',
    message:
      `${which} is valid, but has an enum its dialect advises against: ${listed}. JSON Schema ${dialect}, on ` +
      `enum: "${ENUM_SHOULD_TEXT}"`,
    expected:
      'enum arrays with at least one element, each element once (a subschema that admits nothing can say `false`)',
    sentence: USES_JSON_SCHEMA,
  };
}

const VALID_UNDER_DIALECT: SpecSentence = {
  ref: 'basic/index#schema-validation',
  text: 'Schemas MUST be valid according to their declared or default dialect',
  keyword: 'MUST',
};
const DEFAULT_DIALECT: SpecSentence = {
  ref: 'basic/index#schema-dialect',
  text: 'Default dialect: When a schema does not include a `$schema` field, it defaults to JSON Schema 2020-12',
  keyword: 'descriptive',
};
const INPUT_SCHEMA_OBJECT: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'MUST be a valid JSON Schema object (not `null`)',
  keyword: 'MUST',
};
const RECOMMENDED_DIALECT: SpecSentence = {
  ref: 'basic/index#schema-dialect',
  text: 'Recommendation: Implementors are RECOMMENDED to use JSON Schema 2020-12.',
  keyword: 'RECOMMENDED',
};
const USES_JSON_SCHEMA: SpecSentence = {
  ref: 'basic/index#json-schema-usage',
  text: 'The Model Context Protocol uses JSON Schema for validation throughout the protocol.',
  keyword: 'descriptive',
};
/** Before 2025-11-25 (no JSON Schema Usage section), the tool page only names the schemas JSON Schemas. */
const INPUT_IS_JSON_SCHEMA: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'inputSchema: JSON Schema defining expected parameters',
  keyword: 'descriptive',
};
const OUTPUT_IS_JSON_SCHEMA: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'outputSchema: Optional JSON Schema defining expected output structure',
  keyword: 'descriptive',
};
const IS_JSON_SCHEMA: Record<Which, SpecSentence> = {
  inputSchema: INPUT_IS_JSON_SCHEMA,
  outputSchema: OUTPUT_IS_JSON_SCHEMA,
};

/**
 * `sinceDefaultDialect` on 2025-11-25 and later (the revisions with a default dialect); on each earlier revision, the
 * tool page's naming of those of `which` it defines.
 */
function withEarlierRevisions(
  sinceDefaultDialect: readonly SpecSentence[],
  which: readonly Which[] = ['inputSchema', 'outputSchema'],
): SpecSentences {
  const defined = (wire: Revision) => which.filter((w) => schemasOf(wire).includes(w));
  const earlier = REVISIONS.filter((wire) => !hasDefaultDialect(wire) && defined(wire).length > 0);
  return {
    ...fromRevision('2025-11-25', ...sinceDefaultDialect),
    ...perRevision(earlier, (wire) => defined(wire).map((w) => IS_JSON_SCHEMA[w])),
  };
}

export const inputSchemaValid: CheckDefinition = defineCheck({
  id: 'jsonschema.valid.input',
  covers: [
    'jsonschema.valid',
    'tools.schema.default-dialect',
    'jsonschema.impl.default-2020-12',
    'jsonschema.dialect.explicit-may',
  ],
  title: 'inputSchema is a valid JSON Schema under its declared dialect (2020-12 when none is declared)',
  area: 'json-schema',
  sentences: withEarlierRevisions(
    [VALID_UNDER_DIALECT, DEFAULT_DIALECT, INPUT_SCHEMA_OBJECT, USES_JSON_SCHEMA],
    ['inputSchema'],
  ),
  run: validity('inputSchema'),
});

export const outputSchemaValid: CheckDefinition = defineCheck({
  id: 'jsonschema.valid.output',
  covers: ['jsonschema.valid'],
  title: 'outputSchema, when present, is a valid JSON Schema under its declared dialect',
  area: 'json-schema',
  sentences: withEarlierRevisions([VALID_UNDER_DIALECT, DEFAULT_DIALECT, USES_JSON_SCHEMA], ['outputSchema']),
  run: validity('outputSchema'),
});

export const dialectRecommended: CheckDefinition = defineCheck({
  id: 'jsonschema.dialect.recommended',
  title: 'Tool schemas use JSON Schema 2020-12 (the recommended dialect)',
  area: 'json-schema',
  sentences: fromRevision('2025-11-25', RECOMMENDED_DIALECT),
  async run(ctx) {
    const tools = await listedTools(ctx);
    const other: string[] = [];
    const declared: Record<string, string> = {};
    let schemas = 0;
    for (const t of tools) {
      for (const which of ['inputSchema', 'outputSchema'] as const) {
        const schema = schemaOf(t, which);
        if (!schema) continue;
        schemas += 1;
        const info = dialectOf(schema);
        if (info.dialect !== '2020-12') {
          other.push(`${t.label}.${which} (${info.declared ?? info.dialect})`);
          declared[`${t.label}.${which}`] = String(info.declared ?? info.dialect);
        }
      }
    }
    if (schemas === 0) return [skip('no tool schema to inspect')];
    if (other.length === 0) return [pass(`all ${schemas} schemas use 2020-12`)];
    return [
      fail(
        `${other.length} of ${schemas} schemas declare another dialect: ${other.slice(0, 8).join(', ')}` +
          `${other.length > 8 ? ', …' : ''}`,
        'JSON Schema 2020-12 (no $schema, or "https://json-schema.org/draft/2020-12/schema"); other dialects ' +
          'are allowed but not every client supports them',
        [note('the $schema each schema declares', declared)],
      ),
    ];
  },
});

const refsCache = new WeakMap<Record<string, unknown>, RefInfo[]>();
function refsOf(schema: Record<string, unknown>): RefInfo[] {
  let refs = refsCache.get(schema);
  if (!refs) {
    refs = analyzeRefs(schema);
    refsCache.set(schema, refs);
  }
  return refs;
}

const LOCAL = new Set<RefInfo['kind']>(['local-pointer', 'anchor']);
const describeRef = (r: RefInfo) =>
  `${r.at || '(root)'} ${r.keyword} ${JSON.stringify(r.ref)}${r.reason ? ` (${r.reason})` : ''}`;

function refCheck(which: 'local' | 'external'): CheckDefinition['run'] {
  return async (ctx) => {
    const outcomes: Outcome[] = [];
    for (const schemaKind of schemasOf(ctx.revision)) {
      const results = await eachSchema(
        ctx,
        schemaKind,
        (schema) => {
          const refs = refsOf(schema).filter((r) =>
            which === 'local' ? LOCAL.has(r.kind) && !r.resolved : !LOCAL.has(r.kind),
          );
          if (refs.length === 0) return undefined;
          return which === 'local'
            ? fail(
                `${schemaKind} has same-document references that do not resolve: ${refs.map(describeRef).join('; ')}`,
                'every #/… pointer and #anchor points at a subschema of the same document',
              )
            : fail(
                `${schemaKind} refers outside the document: ${refs.map(describeRef).join('; ')} — never ` +
                  `fetched by this tool`,
                'self-contained schemas: clients do not dereference network URIs by default, and a schema ' +
                  'whose external $ref cannot be resolved SHOULD be rejected',
              );
        },
        `${schemaKind === 'inputSchema' ? 'input' : 'output'} schemas`,
      );
      outcomes.push(
        ...results
          .filter((o) => !(o.status === 'skip' && /no tool has an object/.test(o.message)))
          .map((o) => (o.status === 'fail' ? { ...o, sentence: IS_JSON_SCHEMA[schemaKind] } : o)),
      );
    }
    if (outcomes.length === 0) return [skip('no tool schema to inspect')];
    const passes = outcomes.filter((o) => o.status === 'pass');
    const rest = outcomes.filter((o) => o.status !== 'pass');
    return passes.length > 0 ? [pass(passes.map((p) => p.message).join('; ')), ...rest] : rest;
  };
}

export const refsResolve: CheckDefinition = defineCheck({
  id: 'jsonschema.ref.resolves',
  title: 'Same-document $ref (#/… pointers, #anchors) in tool schemas resolve',
  area: 'json-schema',
  // No sentence requires a same-document $ref to resolve; a schema that cannot be evaluated cannot serve validation.
  sentences: withEarlierRevisions([USES_JSON_SCHEMA]),
  run: refCheck('local'),
});

export const refsExternal: CheckDefinition = defineCheck({
  id: 'jsonschema.ref.external',
  covers: ['jsonschema.ref.unresolved-reject'],
  title:
    'Tool schemas do not $ref network, file or other external URIs (clients do not fetch them by default and ' +
    'should reject such schemas)',
  area: 'json-schema',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#ref-resolution',
        text:
          'Schemas that fail to validate due to an unresolved external `$ref` SHOULD be rejected rather than ' +
          'silently treated as permissive.',
        keyword: 'SHOULD',
      },
    ],
  },
  run: refCheck('external'),
});

const MAX_LISTED_PATTERNS = 8;

export const patternsEcma: CheckDefinition = defineCheck({
  id: 'jsonschema.pattern.ecma',
  title:
    'Regular expressions in tool schemas (pattern, patternProperties) are ECMA-262, as JSON Schema 2020-12 recommends',
  area: 'json-schema',
  // The MCP pages only say which JSON Schema applies; the ECMA-262 recommendation is JSON Schema's own (a SHOULD
  // there).
  sentences: withEarlierRevisions([DEFAULT_DIALECT, USES_JSON_SCHEMA]),
  async run(ctx) {
    const outcomes: Outcome[] = [];
    let checked = 0;
    for (const t of await listedTools(ctx)) {
      const bad: string[] = [];
      const where = new Set<Which>();
      for (const which of schemasOf(ctx.revision)) {
        const schema = schemaOf(t, which);
        if (!schema) continue;
        for (const found of findPatterns(schema)) {
          checked += 1;
          const problem = ecmaRegExpProblem(found.pattern);
          if (!problem) continue;
          bad.push(`${which}${found.at} ${JSON.stringify(found.pattern)} (${problem})`);
          where.add(which);
        }
      }
      if (bad.length === 0) continue;
      outcomes.push({
        ...fail(
          `${bad.length} pattern${bad.length === 1 ? '' : 's'} that ECMA-262 (RegExp with the u flag) cannot ` +
            `compile: ${bad.slice(0, MAX_LISTED_PATTERNS).join('; ')}` +
            `${bad.length > MAX_LISTED_PATTERNS ? '; …' : ''}`,
          'ECMA-262 regular expressions (every JSON Schema dialect from draft-04 to 2020-12: a pattern SHOULD ' +
            'be valid in the ECMA-262 dialect); a client validating in JavaScript cannot use this one',
        ),
        sentence: IS_JSON_SCHEMA[where.has('inputSchema') ? 'inputSchema' : 'outputSchema'],
        tool: t.label,
        evidence: toolEvidence(t),
      });
    }
    if (checked === 0) return [skip('no tool schema has a pattern or patternProperties')];
    return outcomes.length === 0 ? [pass(`${checked} patterns compile as ECMA-262`)] : outcomes;
  },
});

export const JSON_SCHEMA_CHECKS = [
  inputSchemaValid,
  outputSchemaValid,
  dialectRecommended,
  refsResolve,
  refsExternal,
  patternsEcma,
] as const;
