import type { AnySchemaObject } from 'ajv';
import { requireModule, type AjvFamily } from '../ajv-factory.js';

/**
 * The meta-schema documents tool schemas are validated against: the ones ajv ships (ajv-draft-04's for draft-04),
 * corrected where they differ from the official documents published at json-schema.org. 2019-09 and 2020-12 are
 * identical to the official ones; the corrections below are the whole difference for the drafts.
 */
const FILES = {
  '2020-12': 'ajv/dist/refs/json-schema-2020-12/schema.json',
  '2019-09': 'ajv/dist/refs/json-schema-2019-09/schema.json',
  'draft-07': 'ajv/dist/refs/json-schema-draft-07.json',
  'draft-06': 'ajv/dist/refs/json-schema-draft-06.json',
  'draft-04': 'ajv-draft-04/dist/refs/json-schema-draft-04.json',
} as const;

/** The documents of each ajv family: a dialect's meta-schema, and the vocabulary documents it refers to. */
export const META_SCHEMA_FILES: Record<AjvFamily, readonly string[]> = {
  '2020': [
    FILES['2020-12'],
    ...['core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'content'].map(
      (name) => `ajv/dist/refs/json-schema-2020-12/meta/${name}.json`,
    ),
  ],
  '2019': [
    FILES['2019-09'],
    ...['core', 'applicator', 'validation', 'meta-data', 'format', 'content'].map(
      (name) => `ajv/dist/refs/json-schema-2019-09/meta/${name}.json`,
    ),
  ],
  'draft-07': [FILES['draft-07'], FILES['draft-06'], FILES['draft-04']],
};

export interface MetaSchemaCorrection {
  file: string;
  /** Property names from the document's root to the member replaced. */
  at: readonly string[];
  /** The member as the official document has it. */
  official: unknown;
  why: string;
}

const EMPTY_ENUM_ALLOWED =
  'ajv adds minItems: 1 and uniqueItems: true; the validation text only says "This array SHOULD have at least ' +
  'one element. Elements in the array SHOULD be unique."';

export const META_SCHEMA_CORRECTIONS: readonly MetaSchemaCorrection[] = [
  {
    file: FILES['draft-07'],
    at: ['properties', 'enum'],
    official: { type: 'array', items: true },
    why: EMPTY_ENUM_ALLOWED,
  },
  { file: FILES['draft-06'], at: ['properties', 'enum'], official: { type: 'array' }, why: EMPTY_ENUM_ALLOWED },
  {
    file: FILES['draft-06'],
    at: ['properties', 'patternProperties', 'propertyNames'],
    official: { format: 'regex' },
    why:
      'ajv lacks it; no verdict changes (formats are annotations in meta-validation, and jsonschema.pattern.ecma ' +
      'judges regular expressions)',
  },
  {
    file: FILES['draft-04'],
    at: ['properties', 'id'],
    official: { type: 'string' },
    why: 'ajv-draft-04 adds format: "uri"',
  },
  {
    file: FILES['draft-04'],
    at: ['properties', '$schema'],
    official: { type: 'string' },
    why: 'ajv-draft-04 adds format: "uri"',
  },
  {
    file: FILES['draft-04'],
    at: ['properties', 'format'],
    official: { type: 'string' },
    why: 'ajv-draft-04 lacks it, so it accepted a format that is not a string',
  },
];

function corrected(file: string, document: AnySchemaObject): AnySchemaObject {
  const copy = structuredClone(document);
  for (const correction of META_SCHEMA_CORRECTIONS.filter((c) => c.file === file)) {
    let parent: Record<string, unknown> = copy;
    for (const key of correction.at.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    parent[correction.at[correction.at.length - 1]!] = structuredClone(correction.official);
  }
  return copy;
}

/**
 * The draft-04 meta-schema as the draft-07 class of ajv reads it, with the same verdicts: `id` is `$id` there, and
 * draft-04's boolean `exclusiveMinimum` (under `multipleOf`, its one use) is the number form of later drafts.
 */
function asDraft07Document(draft04: AnySchemaObject): AnySchemaObject {
  const { id, $schema: _declared, ...rest } = draft04;
  const properties = rest.properties as Record<string, Record<string, unknown>>;
  const { minimum, exclusiveMinimum: _exclusive, ...multipleOf } = properties.multipleOf!;
  return { $id: id, ...rest, properties: { ...properties, multipleOf: { ...multipleOf, exclusiveMinimum: minimum } } };
}

/** The official meta-schema documents of `family`, ready to add to an ajv of that family. */
export function officialMetaSchemas(family: AjvFamily): AnySchemaObject[] {
  return META_SCHEMA_FILES[family].map((file) => {
    const document = corrected(file, requireModule<AnySchemaObject>(file));
    return file === FILES['draft-04'] ? asDraft07Document(document) : document;
  });
}
