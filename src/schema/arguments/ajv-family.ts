import { FAMILY_OF, newAjv, requireModule, type AjvFamily } from '../ajv-factory.js';
import type { AnySchema, AnySchemaObject, Options, ValidateFunction } from 'ajv';
import type { Dialect } from '../tool-schema/index.js';
import { guardedRegExp } from './regexp-guard.js';

export type ArgumentDialect = Exclude<Dialect, 'draft-04'>;

interface AjvLike {
  compile(schema: AnySchema): ValidateFunction;
  addMetaSchema(schema: AnySchemaObject): unknown;
  /** Without an argument: forgets every non-meta schema, so `$id`s of untrusted schemas never pile up or clash. */
  removeSchema(): unknown;
}

/** The `$schema` spelling ajv registers; `dialectOf` also accepts http/https and `#` variants. */
const CANONICAL_SCHEMA_URI: Record<ArgumentDialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
};

/**
 * No `loadSchema`: a reference ajv cannot resolve in the document fails the compilation, nothing is fetched.
 * `validateSchema: false`: callers meta-validate first with the build's precompiled meta-schema validators;
 * ajv's own check would compile the whole meta-schema at run time (~90 ms of blocked event loop per dialect).
 * `inlineRefs: 8` keeps large referenced definitions as separate functions: ajv's default inlines every
 * ref-free definition at each use, so one big `$defs` entry referenced a few hundred times took ~17 s to compile.
 * `optimize: false` skips ajv's clean-up pass over the generated code (same verdicts): each schema is compiled while
 * the audit waits for it and validates only a few hundred values, so the pass cost more (~40 % of compile time) than
 * it saved.
 */
export const ARGUMENT_AJV_OPTIONS: Readonly<Options> = {
  strict: false,
  allErrors: true,
  logger: false,
  inlineRefs: 8,
  validateSchema: false,
  code: { regExp: guardedRegExp, optimize: false },
};

/**
 * How `format` is compiled. `annotation`: ignored (ajv's `validateFormats: false`), as JSON Schema 2020-12 and 2019-09
 * treat it unless the format-assertion vocabulary is declared, and as draft-06/07 allow; this decides validity.
 * `assertion`: checked with ajv-formats, to tell where a validator that asserts formats would judge otherwise.
 */
export type FormatMode = 'annotation' | 'assertion';

const ajvByFamily: Record<FormatMode, Map<AjvFamily, AjvLike>> = { annotation: new Map(), assertion: new Map() };

function emptyAjv(family: AjvFamily, formats: FormatMode): AjvLike {
  const ajv = newAjv(family, { ...ARGUMENT_AJV_OPTIONS, validateFormats: formats === 'assertion' });
  if (family === 'draft-07')
    ajv.addMetaSchema(requireModule<AnySchemaObject>('ajv/dist/refs/json-schema-draft-06.json'));
  return ajv;
}

function ajvFor(family: AjvFamily, formats: FormatMode): AjvLike {
  let ajv = ajvByFamily[formats].get(family);
  if (!ajv) {
    ajv = emptyAjv(family, formats);
    if (formats === 'assertion') {
      const addFormats = requireModule<typeof import('ajv-formats').default>('ajv-formats');
      addFormats(ajv as Parameters<typeof addFormats>[0]);
    }
    ajvByFamily[formats].set(family, ajv);
  }
  return ajv;
}

/**
 * Builds the 2020-12 ajv ahead of the first compilation (~100 ms of loading ajv's compiler): called while the main
 * thread would otherwise only wait for the target to start. ajv-formats is loaded only for a schema that has a
 * `format`.
 */
export function warmUpArgumentAjv(): void {
  ajvFor('2020', 'annotation');
}

/** Compiles `schema` (already bounds- and ref-checked) with the ajv of its dialect; throws what ajv throws. */
export function compileWithAjv(
  schema: AnySchema,
  dialect: ArgumentDialect,
  formats: FormatMode = 'annotation',
): ValidateFunction {
  const ajv = ajvFor(FAMILY_OF[dialect], formats);
  const prepared = typeof schema === 'boolean' ? schema : { ...schema, $schema: CANONICAL_SCHEMA_URI[dialect] };
  try {
    return ajv.compile(prepared);
  } finally {
    ajv.removeSchema();
  }
}
