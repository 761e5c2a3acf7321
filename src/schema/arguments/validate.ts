import type { AnySchema, ValidateFunction } from 'ajv';
import { isObject } from '../../jsonrpc.js';
import { analyzeRefs, dialectOf, ecmaRegExpProblem, findPatterns, measureSchema, validateSchemaDocument, type RefInfo } from '../tool-schema/index.js';
import { shorten } from '../tool-schema/shorten.js';
import type { SchemaIssue } from '../validator.js';
import { compileWithAjv } from './ajv-family.js';
import { toIssues } from './ajv-issues.js';
import { RegExpTimeoutError } from './regexp-sandbox.js';
import { TextCache } from './text-cache.js';

export interface ArgumentValidator {
  validate(value: unknown): { valid: boolean; issues: SchemaIssue[] };
}

export type CompiledArgumentSchema = { ok: true; validator: ArgumentValidator } | { ok: false; reason: string };

const cache = new TextCache<CompiledArgumentSchema>();
/** The same schema object is compiled for every case of a property search: skip even the checks and the JSON text. */
const byObject = new WeakMap<object, CompiledArgumentSchema>();

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
  return `${ref.keyword} ${shorten(ref.ref, 80)} at ${where} cannot be resolved in this document: ${ref.reason ?? 'unresolved'}`;
}

function describeThrown(error: unknown): string {
  if (error instanceof RangeError) return `schema could not be compiled (${shorten(error.message, 120)})`;
  const message = error instanceof Error ? error.message : String(error);
  return `schema could not be compiled: ${shorten(message, 240)}`;
}

function validatorOf(validate: ValidateFunction): ArgumentValidator {
  return {
    validate(value) {
      try {
        if (validate(value)) return { valid: true, issues: [] };
        return { valid: false, issues: toIssues(validate.errors ?? []) };
      } catch (error) {
        if (error instanceof RegExpTimeoutError) {
          return { valid: false, issues: [{ instancePath: '', schemaPath: '#', keyword: UNDECIDED_KEYWORD, params: {}, message: error.message }] };
        }
        const message = `validation threw: ${shorten(error instanceof Error ? error.message : String(error), 120)}`;
        return { valid: false, issues: [{ instancePath: '', schemaPath: '#', keyword: 'exception', params: {}, message }] };
      }
    },
  };
}

/** The checks that run before ajv sees the schema; undefined when the schema may be compiled. */
function precheck(schema: unknown): string | undefined {
  if (typeof schema !== 'boolean' && !isObject(schema)) return 'a schema must be a JSON object or a boolean';
  const bounds = measureSchema(schema);
  if (!bounds.ok) return bounds.message ?? 'schema is over the size bounds';
  const dialect = dialectOf(schema);
  if (!dialect.supported || dialect.dialect === undefined || dialect.dialect === 'draft-04') {
    return `unsupported dialect: ${dialect.reason ?? dialect.dialect ?? 'unknown'}`;
  }
  const unresolved = analyzeRefs(schema).find((ref) => !ref.resolved);
  if (unresolved !== undefined) return describeRef(unresolved);
  return nonEcmaPattern(schema);
}

/** ajv compiles patterns as ECMA-262 (`u` flag): a schema with another dialect of regular expression is not compiled. */
function nonEcmaPattern(schema: unknown): string | undefined {
  for (const found of findPatterns(schema)) {
    const problem = ecmaRegExpProblem(found.pattern);
    if (problem !== undefined) return `the ${found.keyword} ${shorten(JSON.stringify(found.pattern), 80)} at ${shorten(found.at, 80)} is not an ECMA-262 regular expression (${shorten(problem, 120)})`;
  }
  return undefined;
}

function compile(schema: AnySchema): CompiledArgumentSchema {
  const dialect = dialectOf(schema).dialect;
  if (dialect === undefined || dialect === 'draft-04') return refused('unsupported dialect');
  const meta = validateSchemaDocument(schema);
  if (!meta.checked) return refused(`schema could not be meta-validated: ${meta.skippedBecause ?? 'unknown reason'}`);
  const [issue] = meta.issues;
  if (issue) return refused(`schema is invalid against the ${dialect} meta-schema: ${shorten(`${issue.instancePath || "/"} ${issue.message}`, 240)}`);
  try {
    return { ok: true, validator: validatorOf(compileWithAjv(schema, dialect)) };
  } catch (error) {
    return refused(describeThrown(error));
  }
}

/**
 * Compiles an untrusted tool `inputSchema` for validating arguments. Nothing is ever fetched: a reference
 * leaving the document refuses the schema. Results (refusals included) are cached by the schema's JSON text.
 */
export function compileArgumentSchema(schema: unknown): CompiledArgumentSchema {
  const known = isObject(schema) ? byObject.get(schema) : undefined;
  if (known !== undefined) return known;
  const compiled = compileUncached(schema);
  if (isObject(schema)) byObject.set(schema, compiled);
  return compiled;
}

function compileUncached(schema: unknown): CompiledArgumentSchema {
  const problem = precheck(schema);
  if (problem !== undefined) return refused(problem);
  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch (error) {
    return refused(describeThrown(error));
  }
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const compiled = compile(schema as AnySchema);
  cache.set(key, compiled);
  return compiled;
}
