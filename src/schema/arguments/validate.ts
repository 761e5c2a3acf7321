import type { AnySchema, ValidateFunction } from 'ajv';
import { isObject } from '../../core/jsonrpc.js';
import {
  analyzeRefs,
  dialectOf,
  ecmaRegExpProblem,
  findPatterns,
  measureSchema,
  namesDefaultDialect,
  usesFormat,
  validateSchemaDocument,
  type Dialect,
  type RefInfo,
} from '../tool-schema/index.js';
import type { Revision } from '../../core/revision.js';
import { shorten } from '../tool-schema/shorten.js';
import type { SchemaIssue } from '../validator.js';
import { compileWithAjv, type ArgumentDialect, type FormatMode } from './ajv-family.js';
import { compilableEnums, type CompilableSchema } from './empty-enum.js';
import { toIssues } from './ajv-issues.js';
import { RegExpTimeoutError } from './regexp-sandbox.js';
import { TextCache } from './text-cache.js';
import { hasRefSiblings, readingsMayDiffer, withoutRefSiblings } from './dialect-readings.js';

/**
 * `format` is an annotation: JSON Schema 2020-12 (MCP's default dialect) and 2019-09 only assert it under the
 * format-assertion vocabulary, which a tool schema could declare only through a custom meta-schema (an unknown dialect
 * here, never fetched), and draft-06/07 leave assertion to the implementation. So validity is decided with formats as
 * annotations, and where a validator asserting formats would judge otherwise, the verdict says so instead of deciding.
 */
export interface FormatDependence {
  /**
   * `assertion`: the value is valid, but a validator asserting formats rejects it (`issues`: its format issues).
   * `annotation`: the reverse, only a validator asserting formats accepts it, as when a format is what tells the
   * `oneOf` branches apart (`issues`: what fails with formats as annotations). Either way the value is taken as valid:
   * the verdict hinges on `format` alone.
   */
  rejectedUnder: FormatMode;
  issues: SchemaIssue[];
}

/** How one dialect judged a value. */
export interface DialectReading {
  dialect: ArgumentDialect;
  valid: boolean;
  issues: SchemaIssue[];
}

export interface ArgumentVerdict {
  valid: boolean;
  issues: SchemaIssue[];
  /** Set on a valid verdict that `format` decides (see FormatDependence). */
  format?: FormatDependence;
  /**
   * Set when a schema without `$schema`, on a revision that names no default dialect, is read in several dialects and
   * they disagree on the value: each reading. The value is then taken as valid (it is invalid only where every reading
   * says so), and the verdict hinges on the dialect alone.
   */
  readings?: DialectReading[];
}

export interface ArgumentValidator {
  validate(value: unknown): ArgumentVerdict;
}

export type CompiledArgumentSchema = { ok: true; validator: ArgumentValidator } | { ok: false; reason: string };

/**
 * How a schema without `$schema` is read: `default`, as 2020-12 (the default dialect MCP names from 2025-11-25 on);
 * `any-dialect`, in each dialect values can be validated in (a revision that names no default), a value being invalid
 * only when every reading rejects it.
 */
export type UndeclaredDialect = 'default' | 'any-dialect';

/** How the revision has a schema without `$schema` read. */
export function undeclaredDialectOn(wire: Revision): UndeclaredDialect {
  return namesDefaultDialect(wire) ? 'default' : 'any-dialect';
}

/** The readings of `any-dialect` besides 2020-12, the first and default one. */
const OTHER_READINGS: readonly ArgumentDialect[] = ['2019-09', 'draft-07'];

const cache = new TextCache<CompiledArgumentSchema>();
/** The same schema object is compiled for every case of a property search: skip even the checks and the JSON text. */
const byObject = new WeakMap<object, CompiledArgumentSchema>();
const anyDialectByObject = new WeakMap<object, CompiledArgumentSchema>();

/** The keyword of the one issue reported when a `pattern` outran its deadline: the value was not judged at all. */
export const UNDECIDED_KEYWORD = 'undecided';

/** True when the validator could not judge the value (a pattern outran its deadline). */
export function isUndecided(verdict: { issues: readonly SchemaIssue[] }): boolean {
  return verdict.issues.some((issue) => issue.keyword === UNDECIDED_KEYWORD);
}

function refused(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

function describeRef(ref: RefInfo): string {
  const where = ref.at === '' ? 'the root' : shorten(ref.at, 80);
  return (
    `${ref.keyword} ${shorten(ref.ref, 80)} at ${where} cannot be resolved in this document: ` +
    `${ref.reason ?? 'unresolved'}`
  );
}

function describeThrown(error: unknown): string {
  if (error instanceof RangeError) return `schema could not be compiled (${shorten(error.message, 120)})`;
  const message = error instanceof Error ? error.message : String(error);
  return `schema could not be compiled: ${shorten(message, 240)}`;
}

function run(validate: ValidateFunction, value: unknown, relabel: CompilableSchema['relabel']): ArgumentVerdict {
  try {
    if (validate(value)) return { valid: true, issues: [] };
    return { valid: false, issues: relabel(toIssues(validate.errors ?? [])) };
  } catch (error) {
    if (error instanceof RegExpTimeoutError) {
      return {
        valid: false,
        issues: [{ instancePath: '', schemaPath: '#', keyword: UNDECIDED_KEYWORD, params: {}, message: error.message }],
      };
    }
    const message = `validation threw: ${shorten(error instanceof Error ? error.message : String(error), 120)}`;
    return { valid: false, issues: [{ instancePath: '', schemaPath: '#', keyword: 'exception', params: {}, message }] };
  }
}

/** A verdict the validator did not reach by judging the value (a pattern's deadline, an exception). */
function unjudged(verdict: ArgumentVerdict): boolean {
  return verdict.issues.some((issue) => issue.keyword === UNDECIDED_KEYWORD || issue.keyword === 'exception');
}

/** The format issues of a validator asserting formats (the `anyOf`/`oneOf` issues around them only restate them). */
function formatIssuesOf(issues: SchemaIssue[]): SchemaIssue[] {
  const formats = issues.filter((issue) => issue.keyword === 'format');
  return formats.length > 0 ? formats : issues;
}

/**
 * Judges with formats as annotations; for a schema with a `format`, also with formats asserted (compiled on first
 * use), and reports a disagreement as a FormatDependence of a valid verdict.
 */
function validatorOf(
  annotating: ValidateFunction,
  asserting: (() => ValidateFunction | undefined) | undefined,
  relabel: CompilableSchema['relabel'],
): ArgumentValidator {
  return {
    validate(value) {
      const plain = run(annotating, value, relabel);
      const strictly = asserting?.();
      if (strictly === undefined || unjudged(plain)) return plain;
      const strict = run(strictly, value, relabel);
      if (unjudged(strict) || strict.valid === plain.valid) return plain;
      return plain.valid
        ? { valid: true, issues: [], format: { rejectedUnder: 'assertion', issues: formatIssuesOf(strict.issues) } }
        : { valid: true, issues: [], format: { rejectedUnder: 'annotation', issues: plain.issues } };
    },
  };
}

/** The validator asserting formats, compiled once when first asked for; undefined when ajv cannot compile it. */
function lazyAsserting(schema: AnySchema, dialect: ArgumentDialect): () => ValidateFunction | undefined {
  let compiled: { validate?: ValidateFunction } | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = { validate: compileWithAjv(schema, dialect, 'assertion') };
      } catch {
        compiled = {};
      }
    }
    return compiled.validate;
  };
}

/**
 * Why no value is judged against a draft-04 schema: ajv reads draft-04's keywords only with the class of the
 * ajv-draft-04 package, which this tool does not ship. The schema itself is checked against the draft-04 meta-schema.
 */
const DRAFT_04_VALUES =
  'draft-04 (its schemas are checked against the draft-04 meta-schema, but values are not validated against them)';

/** The checks that run before ajv sees the schema; undefined when the schema may be compiled. */
function precheck(schema: unknown, undeclared?: Dialect): string | undefined {
  if (typeof schema !== 'boolean' && !isObject(schema)) return 'a schema must be a JSON object or a boolean';
  const bounds = measureSchema(schema);
  if (!bounds.ok) return bounds.message ?? 'schema is over the size bounds';
  const dialect = dialectOf(schema, undeclared);
  if (dialect.dialect === 'draft-04') return `unsupported dialect for validating values: ${DRAFT_04_VALUES}`;
  if (!dialect.supported || dialect.dialect === undefined) return `unsupported dialect: ${dialect.reason ?? 'unknown'}`;
  const unresolved = analyzeRefs(schema).find((ref) => !ref.resolved);
  if (unresolved !== undefined) return describeRef(unresolved);
  return nonEcmaPattern(schema);
}

/**
 * ajv compiles patterns as ECMA-262 (`u` flag): a schema with another dialect of regular expression is not compiled.
 */
function nonEcmaPattern(schema: unknown): string | undefined {
  for (const found of findPatterns(schema)) {
    const problem = ecmaRegExpProblem(found.pattern);
    if (problem !== undefined)
      return (
        `the ${found.keyword} ${shorten(JSON.stringify(found.pattern), 80)} at ${shorten(found.at, 80)} is not ` +
        `an ECMA-262 regular expression (${shorten(problem, 120)})`
      );
  }
  return undefined;
}

function compile(schema: AnySchema, undeclared?: Dialect): CompiledArgumentSchema {
  const dialect = dialectOf(schema, undeclared).dialect;
  if (dialect === undefined || dialect === 'draft-04') return refused('unsupported dialect');
  const meta = validateSchemaDocument(schema, undefined, undeclared);
  if (!meta.checked) return refused(`schema could not be meta-validated: ${meta.skippedBecause ?? 'unknown reason'}`);
  const [issue] = meta.issues;
  if (issue)
    return refused(
      `schema is invalid against the ${dialect} meta-schema: ` +
        `${shorten(`${issue.instancePath || '/'} ${issue.message}`, 240)}`,
    );
  try {
    // Up to draft-07 the siblings of a `$ref` are ignored; ajv's draft-07 class would apply them.
    const read =
      (dialect === 'draft-07' || dialect === 'draft-06') && hasRefSiblings(schema)
        ? (withoutRefSiblings(schema) as AnySchema)
        : schema;
    const compilable = compilableEnums(read);
    const annotating = compileWithAjv(compilable.schema, dialect);
    return {
      ok: true,
      validator: validatorOf(
        annotating,
        usesFormat(schema) ? lazyAsserting(compilable.schema, dialect) : undefined,
        compilable.relabel,
      ),
    };
  } catch (error) {
    return refused(describeThrown(error));
  }
}

/**
 * Compiles an untrusted tool `inputSchema` for validating arguments. Nothing is ever fetched: a reference
 * leaving the document refuses the schema. Results (refusals included) are cached by the schema's JSON text.
 * With `any-dialect`, a schema without `$schema` whose readings may differ is read in each (see UndeclaredDialect).
 */
export function compileArgumentSchema(
  schema: unknown,
  undeclared: UndeclaredDialect = 'default',
): CompiledArgumentSchema {
  if (undeclared === 'any-dialect' && isObject(schema) && !Object.hasOwn(schema, '$schema')) {
    let known = anyDialectByObject.get(schema);
    if (known === undefined) {
      known = compileReadings(schema);
      anyDialectByObject.set(schema, known);
    }
    return known;
  }
  const known = isObject(schema) ? byObject.get(schema) : undefined;
  if (known !== undefined) return known;
  const compiled = compileUncached(schema);
  if (isObject(schema)) byObject.set(schema, compiled);
  return compiled;
}

/**
 * The 2020-12 reading, joined by the others that compile when the readings may differ; a schema 2020-12 cannot
 * compile (a draft-07 tuple `items`, say) is read in the others alone.
 */
function compileReadings(schema: Record<string, unknown>): CompiledArgumentSchema {
  const first = compileArgumentSchema(schema);
  if (first.ok && !readingsMayDiffer(schema)) return first;
  const readings: [ArgumentDialect, ArgumentValidator][] = first.ok ? [['2020-12', first.validator]] : [];
  for (const dialect of OTHER_READINGS) {
    const other = compileUncached(schema, dialect);
    if (other.ok) readings.push([dialect, other.validator]);
  }
  if (readings.length === 0) return first;
  return { ok: true, validator: readings.length === 1 ? readings[0]![1] : readingsValidator(readings) };
}

/**
 * Judges in every reading: where they disagree the value is valid, with each reading; otherwise the first's verdict.
 */
function readingsValidator(readings: readonly [ArgumentDialect, ArgumentValidator][]): ArgumentValidator {
  return {
    validate(value) {
      const verdicts = readings.map(([dialect, validator]) => ({ dialect, verdict: validator.validate(value) }));
      const first = verdicts[0]!.verdict;
      const unsure = verdicts.find((r) => unjudged(r.verdict));
      if (unsure) return unsure.verdict;
      if (verdicts.every((r) => r.verdict.valid === first.valid)) return first;
      return {
        valid: true,
        issues: [],
        readings: verdicts.map(({ dialect, verdict }) => ({ dialect, valid: verdict.valid, issues: verdict.issues })),
      };
    },
  };
}

function compileUncached(schema: unknown, undeclared?: Dialect): CompiledArgumentSchema {
  const problem = precheck(schema, undeclared);
  if (problem !== undefined) return refused(problem);
  let key: string;
  try {
    key = `${undeclared ?? ''}\u0000${JSON.stringify(schema)}`;
  } catch (error) {
    return refused(describeThrown(error));
  }
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const compiled = compile(schema as AnySchema, undeclared);
  cache.set(key, compiled);
  return compiled;
}
