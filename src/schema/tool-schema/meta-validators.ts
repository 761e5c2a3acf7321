import { FAMILY_OF, newAjv, requireModule, type AjvFamily } from '../ajv-factory.js';
import type { AnySchemaObject, Options, ValidateFunction } from 'ajv';
import type { Dialect } from './dialect.js';
import { fingerprintOf, loadPrecompiled, metaModule, type PrecompiledModule } from '../precompiled/load.js';

export type MetaDialect = Exclude<Dialect, 'draft-04'>;

interface AjvLike {
  addSchema(schema: AnySchemaObject): unknown;
  getSchema(key: string): ValidateFunction | undefined;
}

export const META_SCHEMA_ID: Record<MetaDialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
  'draft-06': 'http://json-schema.org/draft-06/schema',
};

/** The meta-schema documents ajv ships (under `ajv/dist/refs/`), per ajv family. */
export const META_SCHEMA_FILES: Record<AjvFamily, readonly string[]> = {
  '2020': ['schema', 'core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'content'].map((name) =>
    name === 'schema' ? 'json-schema-2020-12/schema.json' : `json-schema-2020-12/meta/${name}.json`,
  ),
  '2019': ['schema', 'core', 'applicator', 'validation', 'meta-data', 'format', 'content'].map((name) =>
    name === 'schema' ? 'json-schema-2019-09/schema.json' : `json-schema-2019-09/meta/${name}.json`,
  ),
  'draft-07': ['json-schema-draft-07.json', 'json-schema-draft-06.json'],
};

/**
 * ajv compiles its built-in meta-schemas with its own options, so the bundled meta-schema files are added as
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
const validators = new Map<MetaDialect, ValidateFunction>();

/** The dialects whose meta-schema each ajv family validates. */
export const META_DIALECTS: Record<AjvFamily, readonly MetaDialect[]> = {
  '2020': ['2020-12'],
  '2019': ['2019-09'],
  'draft-07': ['draft-07', 'draft-06'],
};

/** An ajv holding the meta-schema documents of `family`; `extra` options are for the build's precompilation. */
export function metaSchemaAjv(family: AjvFamily, extra: Options = {}): AjvLike {
  const ajv = newAjv(family, { ...META_AJV_OPTIONS, ...extra });
  for (const file of META_SCHEMA_FILES[family]) ajv.addSchema(requireModule<AnySchemaObject>(`ajv/dist/refs/${file}`));
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

/** What a family's precompiled module must have been compiled from (the documents come with the ajv version). */
export function metaFingerprint(family: AjvFamily): string {
  return fingerprintOf({ options: META_AJV_OPTIONS, files: META_SCHEMA_FILES[family], dialects: META_DIALECTS[family], formats: [] });
}

const precompiled = new Map<AjvFamily, PrecompiledModule | undefined>();

function precompiledFor(family: AjvFamily): PrecompiledModule | undefined {
  if (!precompiled.has(family)) precompiled.set(family, loadPrecompiled(metaModule(family), metaFingerprint(family)));
  return precompiled.get(family);
}

/** The meta-schema validator of `dialect`: precompiled by the build, or compiled once per process. */
export function metaValidatorFor(dialect: MetaDialect): ValidateFunction {
  let validate = validators.get(dialect);
  if (!validate) {
    const family = FAMILY_OF[dialect];
    validate = precompiledFor(family)?.[dialect] ?? ajvFor(family).getSchema(META_SCHEMA_ID[dialect]);
    if (!validate) throw new Error(`ajv does not ship the ${dialect} meta-schema`);
    validators.set(dialect, validate);
  }
  return validate;
}
