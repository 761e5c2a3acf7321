import { FAMILY_OF, newAjv, type AjvFamily } from '../ajv-factory.js';
import type { AnySchemaObject, Options, ValidateFunction } from 'ajv';
import type { Dialect } from './dialect.js';
import { fingerprintOf, loadPrecompiled, metaModule, type PrecompiledModule } from '../../core/precompiled.js';
import { META_SCHEMA_CORRECTIONS, META_SCHEMA_FILES, officialMetaSchemas } from './official-meta-schemas.js';

interface AjvLike {
  addSchema(schema: AnySchemaObject): unknown;
  getSchema(key: string): ValidateFunction | undefined;
}

export const META_SCHEMA_ID: Record<Dialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
  'draft-06': 'http://json-schema.org/draft-06/schema',
  'draft-04': 'http://json-schema.org/draft-04/schema',
};

/**
 * ajv compiles its built-in meta-schemas with its own options, so the official meta-schema documents are added as
 * ordinary schemas instead (`meta: false`). No format is asserted: in the meta-schemas `format` is an annotation
 * (a `pattern` that is not ECMA-262 is reported by a check of its own, jsonschema.pattern.ecma, never as an invalid
 * schema). There is no `loadSchema`: nothing is ever fetched.
 */
export const META_AJV_OPTIONS: Options = {
  allErrors: true,
  strict: false,
  meta: false,
  validateSchema: false,
  validateFormats: false,
};

const ajvByFamily = new Map<AjvFamily, AjvLike>();
const validators = new Map<Dialect, ValidateFunction>();

/** The dialects whose meta-schema each ajv family validates (draft-04's is read by the draft-07 class). */
export const META_DIALECTS: Record<AjvFamily, readonly Dialect[]> = {
  '2020': ['2020-12'],
  '2019': ['2019-09'],
  'draft-07': ['draft-07', 'draft-06', 'draft-04'],
};

/**
 * An ajv holding the official meta-schema documents of `family`; `extra` options are for the build's precompilation.
 */
export function metaSchemaAjv(family: AjvFamily, extra: Options = {}): AjvLike {
  const ajv = newAjv(family, { ...META_AJV_OPTIONS, ...extra });
  for (const document of officialMetaSchemas(family)) ajv.addSchema(document);
  return ajv;
}

function ajvFor(family: AjvFamily): AjvLike {
  let ajv = ajvByFamily.get(family);
  if (!ajv) {
    ajv = metaSchemaAjv(family);
    ajvByFamily.set(family, ajv);
  }
  return ajv;
}

/**
 * What a family's precompiled module must have been compiled from: the documents come with the (pinned) versions of ajv
 * and ajv-draft-04, and are corrected as official-meta-schemas.ts says.
 */
export function metaFingerprint(family: AjvFamily): string {
  const files = META_SCHEMA_FILES[family];
  const corrections = META_SCHEMA_CORRECTIONS.filter((c) => files.includes(c.file));
  return fingerprintOf({ options: META_AJV_OPTIONS, files, corrections, dialects: META_DIALECTS[family], formats: [] });
}

const precompiled = new Map<AjvFamily, PrecompiledModule | undefined>();
/** The build writes the precompiled modules next to their generator (src/schema/precompiled/generate.ts). */
const PRECOMPILED_NEAR = new URL('../precompiled/generate.js', import.meta.url).href;

function precompiledFor(family: AjvFamily): PrecompiledModule | undefined {
  if (!precompiled.has(family))
    precompiled.set(family, loadPrecompiled(metaModule(family), metaFingerprint(family), PRECOMPILED_NEAR));
  return precompiled.get(family);
}

/** The meta-schema validator of `dialect`: precompiled by the build, or compiled once per process. */
export function metaValidatorFor(dialect: Dialect): ValidateFunction {
  let validate = validators.get(dialect);
  if (!validate) {
    const family = FAMILY_OF[dialect];
    validate = precompiledFor(family)?.[dialect] ?? ajvFor(family).getSchema(META_SCHEMA_ID[dialect]);
    if (!validate) throw new Error(`no ${dialect} meta-schema is loaded`);
    validators.set(dialect, validate);
  }
  return validate;
}
