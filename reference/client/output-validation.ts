import { createRequire } from 'node:module';
import type { Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { isObject } from '../../src/core/jsonrpc.js';

const requireCjs = createRequire(import.meta.url);

export type ValidationOutcome = { ok: true } | { ok: false; message: string };

/** The rules structuredContent is validated by, each as a conforming client has it. */
export interface ValidationRules {
  /** An outputSchema with an unresolved $ref is an error (else it accepts anything). */
  unresolvedRefRefused: boolean;
  /** structuredContent is checked against the compiled outputSchema. */
  checksInstance: boolean;
  /** The dialect of an outputSchema without $schema. */
  defaultDialect: '2020-12' | 'draft-07';
  /** The dialect an unknown $schema is taken for, every $schema left out; undefined: an unknown one is an error. */
  unknownDialectAs?: '2020-12';
}

export const CONFORMING_VALIDATION: Readonly<ValidationRules> = {
  unresolvedRefRefused: true,
  checksInstance: true,
  defaultDialect: '2020-12',
};

type Compiled = { validate: ValidateFunction } | { message: string; unresolved?: true };

const compiled = new WeakMap<object, Compiled>();

/**
 * No `loadSchema`: ajv never fetches a `$ref`, an unresolved one fails compilation instead. `format` is an annotation
 * (JSON Schema 2020-12 unless format assertion is declared; optional in draft-07), so a conforming client accepts a
 * value that breaks only a format: `validateFormats: false`, and no ajv-formats.
 */
const OPTIONS = { strict: false, allErrors: true, validateFormats: false };

const DIALECTS: Record<string, () => Ajv> = {
  '2020-12': () => new (requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(OPTIONS),
  '2019-09': () => new (requireCjs('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(OPTIONS),
  'draft-07': () => new (requireCjs('ajv') as typeof import('ajv')).Ajv(OPTIONS),
};

/** Validates `structuredContent` against a tool's `outputSchema` (2020-12 unless `$schema` names another dialect). */
export function validateStructuredContent(
  outputSchema: unknown,
  value: unknown,
  rules: Readonly<ValidationRules> = CONFORMING_VALIDATION,
): ValidationOutcome {
  const entry = compile(outputSchema, rules);
  if ('message' in entry)
    return !rules.unresolvedRefRefused && entry.unresolved ? { ok: true } : { ok: false, message: entry.message };
  if (!rules.checksInstance || entry.validate(value)) return { ok: true };
  return {
    ok: false,
    message: `structuredContent does not match outputSchema: ${describe(entry.validate.errors ?? [])}`,
  };
}

function compile(outputSchema: unknown, rules: Readonly<ValidationRules>): Compiled {
  if (typeof outputSchema === 'boolean') return compileWith('2020-12', outputSchema);
  if (!isObject(outputSchema)) return { message: 'outputSchema is not a JSON Schema' };
  let entry = compiled.get(outputSchema);
  if (!entry) {
    const dialect =
      outputSchema.$schema === undefined
        ? rules.defaultDialect
        : (dialectOf(outputSchema.$schema) ?? rules.unknownDialectAs);
    entry = dialect
      ? compileWith(dialect, rules.unknownDialectAs ? withoutSchema(outputSchema) : outputSchema)
      : { message: `unsupported JSON Schema dialect ${JSON.stringify(outputSchema.$schema)}` };
    compiled.set(outputSchema, entry);
  }
  return entry;
}

const shared = new Map<string, Ajv>();

/** Schemas that name themselves or their parts: two tools may use the same `$id` or anchor. */
const NAMING = /"\$(id|anchor|dynamicAnchor)"/;

function compileWith(dialect: string, schema: AnySchema): Compiled {
  // A schema that names itself or its parts gets an ajv of its own, where its names cannot meet another tool's;
  // the others share one per dialect (a new ajv compiles its meta-schemas again, ~20 ms each).
  const ajv = NAMING.test(JSON.stringify(schema)) ? DIALECTS[dialect]!() : sharedAjv(dialect);
  try {
    return { validate: ajv.compile(schema) };
  } catch (error) {
    const missing = (error as { missingRef?: unknown }).missingRef;
    if (typeof missing === 'string')
      return { message: `outputSchema has an unresolved $ref: ${missing}`, unresolved: true };
    return { message: `outputSchema does not compile: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function sharedAjv(dialect: string): Ajv {
  let ajv = shared.get(dialect);
  if (!ajv) shared.set(dialect, (ajv = DIALECTS[dialect]!()));
  return ajv;
}

/** The schema without its $schema (ajv would refuse a $schema it does not know). */
function withoutSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

function dialectOf(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const normalised = uri.replace(/#$/, '').replace(/^http:/, 'https:');
  if (normalised === 'https://json-schema.org/draft/2020-12/schema') return '2020-12';
  if (normalised === 'https://json-schema.org/draft/2019-09/schema') return '2019-09';
  if (normalised === 'https://json-schema.org/draft-07/schema') return 'draft-07';
  return undefined;
}

function describe(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`)
    .join('; ');
}
