import { isObject } from '../../core/jsonrpc.js';

export type SchemaObject = Record<string, unknown>;
export type SchemaNode = SchemaObject | boolean;
export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

const OBJECT_KEYWORDS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'propertyNames',
];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'contains', 'uniqueItems'];
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

export function failure(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** The declared `type` as a list, or undefined when the schema declares none. */
export function declaredTypes(schema: SchemaObject): string[] | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return undefined;
}

/** The type implied by type-specific keywords when `type` is absent. */
export function impliedType(schema: SchemaObject): string | undefined {
  const has = (keywords: readonly string[]): boolean => keywords.some((keyword) => Object.hasOwn(schema, keyword));
  if (has(OBJECT_KEYWORDS)) return 'object';
  if (has(ARRAY_KEYWORDS)) return 'array';
  if (has(STRING_KEYWORDS)) return 'string';
  if (has(NUMBER_KEYWORDS)) return 'number';
  return undefined;
}

export function numberAt(schema: SchemaObject, keyword: string): number | undefined {
  const value = schema[keyword];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function countAt(schema: SchemaObject, keyword: string): number | undefined {
  const value = numberAt(schema, keyword);
  return value !== undefined && value >= 0 ? Math.ceil(value) : undefined;
}

export function objectAt(schema: SchemaObject, keyword: string): SchemaObject | undefined {
  const value = schema[keyword];
  return isObject(value) ? value : undefined;
}

export function schemaListAt(schema: SchemaObject, keyword: string): unknown[] {
  const value = schema[keyword];
  return Array.isArray(value) ? value : [];
}

export function stringsAt(schema: SchemaObject, keyword: string): string[] {
  return [...new Set(schemaListAt(schema, keyword).filter((entry): entry is string => typeof entry === 'string'))];
}

export function without(schema: SchemaObject, keyword: string): SchemaObject {
  const copy = { ...schema };
  delete copy[keyword];
  return copy;
}

/** Sets a property even when its name is `__proto__`, which plain assignment would turn into a prototype change. */
export function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}
