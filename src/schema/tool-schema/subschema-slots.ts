import { isObject } from '../../core/jsonrpc.js';

/**
 * Where a value sits in a schema document: a subschema, an array or map whose members are subschemas,
 * or plain data (`const`, `enum`, `default`, vendor extensions such as `x-mcp-header`, …).
 * Keywords of every supported dialect are recognised together, so draft-07 `definitions`/`dependencies`
 * and 2020-12 `$defs`/`prefixItems` are all walked.
 */
export type Slot = 'schema' | 'schema-list' | 'schema-map' | 'data';

const SINGLE_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
  'items',
]);

const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/** A subschema is an object or a boolean; anything else in a subschema position is invalid data. */
export function isSchemaValue(value: unknown): value is Record<string, unknown> | boolean {
  return typeof value === 'boolean' || isObject(value);
}

/** The slot of `value` found under `keyword` of a subschema object. */
export function slotOfKeyword(keyword: string, value: unknown): Slot {
  if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) return 'schema-list';
  if (SINGLE_SCHEMA_KEYWORDS.has(keyword) && isSchemaValue(value)) return 'schema';
  if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) return 'schema-map';
  return 'data';
}

/** The slot of a member of a `schema-list` or `schema-map` (draft-07 `dependencies` members may be string arrays). */
export function slotOfMember(value: unknown): Slot {
  return isSchemaValue(value) ? 'schema' : 'data';
}
