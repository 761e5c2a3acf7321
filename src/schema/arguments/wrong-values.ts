import { declaredTypes, jsonTypeOf, numberAt, type SchemaObject } from './schema-node.js';

/** One value of each JSON type (null has its own mutation kind); the number is not an integer on purpose. */
const VALUE_OF_TYPE: ReadonlyArray<readonly [string, unknown]> = [
  ['string', 'not-the-right-type'],
  ['number', 12.5],
  ['integer', 12345],
  ['boolean', true],
  ['array', []],
  ['object', {}],
];

function allows(types: readonly string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** Values whose JSON type `schema` does not declare; without a declared `type`, any type other than `current`'s. */
export function wrongTypeValues(schema: SchemaObject, current: unknown): unknown[] {
  const types = declaredTypes(schema);
  const currentType = jsonTypeOf(current);
  return VALUE_OF_TYPE.filter(([type]) =>
    types === undefined
      ? type !== currentType && !(type === 'integer' && currentType === 'number')
      : !allows(types, type),
  ).map(([, value]) => value);
}

/** A JSON number as text: what a coercing validator reads as a number. */
const NUMERIC_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Whether a validator that coerces scalars converts `value` into one of `types` and keeps its meaning: a number or a
 * boolean into a string, a numeric string or a boolean into a number (an integer when whole), "true"/"false" or 0/1
 * into a boolean. This is the scalar part of Ajv's coerceTypes table, and what pydantic's lax mode and zod's z.coerce
 * accept for these types. Arrays and objects are never coerced to scalars (z.coerce.string() turns {} into
 * "[object Object]": a conversion that keeps nothing is not one).
 */
export function coercesTo(types: readonly string[] | undefined, value: unknown): boolean {
  if (types === undefined) return false;
  const scalar = typeof value === 'number' || typeof value === 'boolean';
  if (types.includes('string') && scalar) return true;
  const numeric = typeof value === 'boolean' || (typeof value === 'string' && NUMERIC_TEXT.test(value));
  if (types.includes('number') && numeric) return true;
  if (types.includes('integer') && numeric && Number.isInteger(Number(value))) return true;
  return types.includes('boolean') && (value === 'true' || value === 'false' || value === 0 || value === 1);
}

/**
 * `current` written as another JSON type that a coercing validator converts back into it (7 as "7", true as "true").
 */
export function recodedValue(current: unknown): unknown {
  if (typeof current === 'number' || typeof current === 'boolean') return String(current);
  if (typeof current === 'string' && NUMERIC_TEXT.test(current)) return Number(current);
  if (current === 'true' || current === 'false') return current === 'true';
  return undefined;
}

/** A value of the same JSON type as the first allowed one, but absent from `allowed`. */
export function enumMissValue(allowed: readonly unknown[]): unknown {
  const texts = new Set(allowed.map((value) => JSON.stringify(value)));
  const first = allowed[0];
  if (typeof first === 'number') {
    const numbers = allowed.filter((value): value is number => typeof value === 'number');
    return Math.max(...numbers) + 1;
  }
  if (typeof first === 'boolean' && !texts.has(JSON.stringify(!first))) return !first;
  let candidate = typeof first === 'string' ? `${first}-not-allowed` : 'not-allowed';
  while (texts.has(JSON.stringify(candidate))) candidate += '-x';
  return candidate;
}

/** Moves `value` further out of range onto a multiple of `multipleOf`, so only the bound is broken. */
function onMultiple(value: number, schema: SchemaObject, direction: 'down' | 'up'): number {
  const step = numberAt(schema, 'multipleOf');
  if (step === undefined || step <= 0) return value;
  return (direction === 'down' ? Math.floor(value / step) : Math.ceil(value / step)) * step;
}

export function belowMinimumValues(schema: SchemaObject, integer: boolean): number[] {
  const values: number[] = [];
  const minimum = numberAt(schema, 'minimum');
  const exclusive = numberAt(schema, 'exclusiveMinimum');
  if (minimum !== undefined) values.push(integer ? Math.ceil(minimum) - 1 : minimum - 1);
  if (exclusive !== undefined) values.push(integer ? Math.floor(exclusive) : exclusive);
  return values.map((value) => onMultiple(value, schema, 'down'));
}

export function aboveMaximumValues(schema: SchemaObject, integer: boolean): number[] {
  const values: number[] = [];
  const maximum = numberAt(schema, 'maximum');
  const exclusive = numberAt(schema, 'exclusiveMaximum');
  if (maximum !== undefined) values.push(integer ? Math.floor(maximum) + 1 : maximum + 1);
  if (exclusive !== undefined) values.push(integer ? Math.ceil(exclusive) : exclusive);
  return values.map((value) => onMultiple(value, schema, 'up'));
}

export function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= 40 ? text : `${text.slice(0, 37)}…`;
}
