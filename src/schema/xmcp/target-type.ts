import { isObject } from '../../core/jsonrpc.js';
import { documentOf, followRefs, type SchemaDocument } from '../arguments/schema-document.js';
import { jsonTypeOf } from '../arguments/schema-node.js';

export type HeaderType = 'string' | 'integer' | 'boolean';

const PRIMITIVES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
/** How far `$ref`, `allOf`, `anyOf` and `oneOf` are followed from the annotated schema. */
const MAX_DEPTH = 16;

/**
 * The integers a schema admits: bounds (inclusive, undefined when open) and, with `enum`/`const`, the listed values.
 */
export interface IntegerRange {
  min?: number;
  max?: number;
  /** Each bound with its keyword, for messages (`maximum 1152921504606847000`). */
  minText?: string;
  maxText?: string;
  values?: readonly number[];
}

/**
 * What the walk learnt about a subschema: the JSON types it admits (undefined: any), the integers it admits ('none'
 * when it admits no number), and why it may admit more than that (an unresolved `$ref`, `not`/`if` left unevaluated).
 */
interface Shape {
  types?: ReadonlySet<string>;
  integers: IntegerRange | 'none';
  /** The types may be wider than `types` says: a reference that was not followed, a walk cut short. */
  unknown?: string;
  /** `not` or `if`/`then`/`else` may narrow the types further; they are not evaluated. */
  narrowed?: boolean;
  /** A `type` that is not a type name (`5`, `[1]`). */
  malformed?: string;
  /** Keywords the types were found through (`$ref`, `allOf`, `anyOf`, `oneOf`, `enum`, `const`). */
  via: ReadonlySet<string>;
}

/**
 * The header type of an annotated parameter: one primitive, or why not. `undecided` says the schema does not show a
 * breach: its type could not be decided from this document (no type, a union of primitives, a reference that is not
 * followed); otherwise the parameter accepts a value that is not an integer, string or boolean (or only null).
 */
export type TypeDecision =
  | { type: HeaderType; integers?: IntegerRange; problem?: undefined }
  | { type?: undefined; problem: string; undecided: boolean };

const ANY: Shape = { integers: {}, via: new Set() };

function union<T>(a: Iterable<T>, b: Iterable<T>): Set<T> {
  return new Set([...a, ...b]);
}

function intersectTypes(
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): ReadonlySet<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  const common = new Set([...a].filter((t) => b.has(t)));
  if ((a.has('number') && b.has('integer')) || (a.has('integer') && b.has('number'))) common.add('integer');
  return common;
}

const admitsIntegers = (types: ReadonlySet<string> | undefined) =>
  !types || types.has('integer') || types.has('number');

function intersectIntegers(a: Shape['integers'], b: Shape['integers']): Shape['integers'] {
  if (a === 'none' || b === 'none') return 'none';
  const out: IntegerRange = { ...a };
  if (b.min !== undefined && (out.min === undefined || b.min > out.min))
    Object.assign(out, { min: b.min, minText: b.minText });
  if (b.max !== undefined && (out.max === undefined || b.max < out.max))
    Object.assign(out, { max: b.max, maxText: b.maxText });
  if (a.values && b.values) out.values = a.values.filter((v) => b.values!.includes(v));
  else if (b.values) out.values = b.values;
  return out;
}

function unionIntegers(a: Shape['integers'], b: Shape['integers']): Shape['integers'] {
  if (a === 'none') return b;
  if (b === 'none') return a;
  const out: IntegerRange = {};
  if (a.min !== undefined && b.min !== undefined)
    Object.assign(out, a.min <= b.min ? { min: a.min, minText: a.minText } : { min: b.min, minText: b.minText });
  if (a.max !== undefined && b.max !== undefined)
    Object.assign(out, a.max >= b.max ? { max: a.max, maxText: a.maxText } : { max: b.max, maxText: b.maxText });
  if (a.values && b.values) out.values = [...a.values, ...b.values];
  return out;
}

function intersect(a: Shape, b: Shape): Shape {
  const types = intersectTypes(a.types, b.types);
  return {
    ...(types ? { types } : {}),
    integers: admitsIntegers(types) ? intersectIntegers(a.integers, b.integers) : 'none',
    ...(a.unknown || b.unknown ? { unknown: a.unknown ?? b.unknown } : {}),
    ...(a.narrowed || b.narrowed ? { narrowed: true } : {}),
    ...(a.malformed || b.malformed ? { malformed: a.malformed ?? b.malformed } : {}),
    via: union(a.via, b.via),
  };
}

/** The branches of `anyOf`/`oneOf` together: a value may match any one of them. */
function unite(shapes: readonly Shape[]): Shape {
  const unknown = shapes.find((s) => s.unknown)?.unknown;
  const anyType = shapes.some((s) => !s.types);
  return {
    ...(anyType ? {} : { types: shapes.reduce<Set<string>>((all, s) => union(all, s.types!), new Set()) }),
    integers: shapes.reduce<Shape['integers']>((all, s) => unionIntegers(all, s.integers), 'none'),
    ...(unknown ? { unknown } : {}),
    ...(shapes.some((s) => s.narrowed) ? { narrowed: true } : {}),
    ...(shapes.some((s) => s.malformed) ? { malformed: shapes.find((s) => s.malformed)!.malformed } : {}),
    via: shapes.reduce<Set<string>>((all, s) => union(all, s.via), new Set()),
  };
}

/** A lower bound as the smallest admitted integer (draft-04 writes `exclusiveMinimum: true` next to `minimum`). */
function lowerBound(schema: Record<string, unknown>): Pick<IntegerRange, 'min' | 'minText'> {
  const bounds: { min: number; minText: string }[] = [];
  const { minimum, exclusiveMinimum } = schema;
  if (typeof minimum === 'number' && Number.isFinite(minimum)) {
    const exclusive = exclusiveMinimum === true;
    bounds.push({
      min: exclusive ? Math.floor(minimum) + 1 : Math.ceil(minimum),
      minText: `${exclusive ? 'exclusive ' : ''}minimum ${String(minimum)}`,
    });
  }
  if (typeof exclusiveMinimum === 'number' && Number.isFinite(exclusiveMinimum)) {
    bounds.push({ min: Math.floor(exclusiveMinimum) + 1, minText: `exclusiveMinimum ${String(exclusiveMinimum)}` });
  }
  return bounds.reduce<Pick<IntegerRange, 'min' | 'minText'>>(
    (best, b) => (best.min === undefined || b.min > best.min ? b : best),
    {},
  );
}

function upperBound(schema: Record<string, unknown>): Pick<IntegerRange, 'max' | 'maxText'> {
  const bounds: { max: number; maxText: string }[] = [];
  const { maximum, exclusiveMaximum } = schema;
  if (typeof maximum === 'number' && Number.isFinite(maximum)) {
    const exclusive = exclusiveMaximum === true;
    bounds.push({
      max: exclusive ? Math.ceil(maximum) - 1 : Math.floor(maximum),
      maxText: `${exclusive ? 'exclusive ' : ''}maximum ${String(maximum)}`,
    });
  }
  if (typeof exclusiveMaximum === 'number' && Number.isFinite(exclusiveMaximum)) {
    bounds.push({ max: Math.ceil(exclusiveMaximum) - 1, maxText: `exclusiveMaximum ${String(exclusiveMaximum)}` });
  }
  return bounds.reduce<Pick<IntegerRange, 'max' | 'maxText'>>(
    (best, b) => (best.max === undefined || b.max < best.max ? b : best),
    {},
  );
}

/** What one schema object says by itself: `type`, `enum`/`const`, numeric bounds. */
function ownShape(schema: Record<string, unknown>): Shape {
  const via = new Set<string>();
  let types: ReadonlySet<string> | undefined;
  let malformed: string | undefined;
  const declared = schema.type;
  if (typeof declared === 'string') types = new Set([declared]);
  else if (Array.isArray(declared) && declared.every((t) => typeof t === 'string'))
    types = new Set(declared as string[]);
  else if (declared !== undefined) malformed = `type ${JSON.stringify(declared)} is not a type name`;
  const listed = Object.hasOwn(schema, 'const') ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (listed) {
    via.add(Object.hasOwn(schema, 'const') ? 'const' : 'enum');
    types = intersectTypes(types, new Set(listed.map(jsonTypeOf)));
  }
  const integers: IntegerRange = { ...lowerBound(schema), ...upperBound(schema) };
  if (listed) integers.values = listed.filter((v): v is number => Number.isInteger(v));
  return {
    ...(types ? { types } : {}),
    integers: admitsIntegers(types) ? integers : 'none',
    ...(malformed ? { malformed } : {}),
    ...(['not', 'if', 'then', 'else'].some((k) => Object.hasOwn(schema, k)) ? { narrowed: true } : {}),
    via,
  };
}

function branches(schema: Record<string, unknown>, keyword: string): unknown[] {
  const value = schema[keyword];
  return Array.isArray(value) ? value : [];
}

/**
 * The shape of a subschema, read through same-document `$ref`s (never fetched), `allOf` (every branch holds) and
 * `anyOf`/`oneOf` (one branch holds), bounded by depth and by the document's work budget.
 */
function shapeOf(node: unknown, doc: SchemaDocument, depth: number): Shape {
  if (depth > MAX_DEPTH)
    return { ...ANY, unknown: `$ref, allOf, anyOf and oneOf nest deeper than ${MAX_DEPTH} levels` };
  if (!doc.budget.spend()) return { ...ANY, unknown: 'the schema is too complex to follow (work budget exhausted)' };
  if (node === true) return ANY;
  if (node === false) return { types: new Set(), integers: 'none', via: new Set() };
  if (!isObject(node)) return { ...ANY, unknown: 'a subschema is neither an object nor a boolean' };
  for (const keyword of ['$dynamicRef', '$recursiveRef']) {
    if (Object.hasOwn(node, keyword)) return { ...ANY, unknown: `${keyword} is not followed`, via: new Set([keyword]) };
  }
  let shape = ownShape(node);
  if (Object.hasOwn(node, '$ref')) {
    const target = followRefs({ $ref: node.$ref }, doc);
    const referenced = target.ok ? shapeOf(target.value, doc, depth + 1) : { ...ANY, unknown: target.reason };
    const via = union(referenced.via, ['$ref']);
    // Before 2019-09 every keyword next to $ref is ignored.
    if (doc.refSiblingsIgnored) return { ...referenced, via };
    shape = { ...intersect(shape, referenced), via: union(shape.via, via) };
  }
  for (const branch of branches(node, 'allOf')) {
    const part = shapeOf(branch, doc, depth + 1);
    shape = intersect(shape, { ...part, via: union(part.via, ['allOf']) });
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    const list = branches(node, keyword);
    if (list.length === 0) continue;
    const united = unite(list.map((branch) => shapeOf(branch, doc, depth + 1)));
    shape = intersect(shape, { ...united, via: union(united.via, [keyword]) });
  }
  return shape;
}

const through = (via: ReadonlySet<string>) => {
  const keywords = [...via].filter((k) => k !== 'enum' && k !== 'const');
  return keywords.length > 0 ? ` (through ${keywords.join(', ')})` : '';
};
const listTypes = (types: Iterable<string>) => [...types].map((t) => JSON.stringify(t)).join(' or ');

/**
 * The header type of the parameter whose schema carries `x-mcp-header`, read through same-document structure
 * (`$ref`, `allOf`, `anyOf`/`oneOf`); `null` among the types is allowed (a null value omits the header).
 */
export function annotatedType(
  schema: Record<string, unknown>,
  root: Record<string, unknown>,
  doc: SchemaDocument = documentOf(root),
): TypeDecision {
  const shape = shapeOf(schema, doc, 0);
  if (shape.malformed) return { problem: shape.malformed, undecided: false };
  const where = through(shape.via);
  if (!shape.types) {
    const why = shape.unknown
      ? `its type could not be decided${where}: ${shape.unknown}`
      : shape.via.size > 0
        ? `the parameter accepts values of any type${where}`
        : 'the parameter declares no type (nor an enum or const that implies one)';
    return { problem: why, undecided: true };
  }
  const nonNull = [...shape.types].filter((t) => t !== 'null');
  if (nonNull.length === 1 && PRIMITIVES.has(nonNull[0]!)) {
    const type = nonNull[0] as HeaderType;
    return { type, ...(type === 'integer' && shape.integers !== 'none' ? { integers: shape.integers } : {}) };
  }
  // Types known at all are only ever narrowed by what was not followed (an allOf branch, a $ref next to a type).
  const open = shape.unknown
    ? `; ${shape.unknown}`
    : shape.narrowed
      ? '; not, if, then and else are not evaluated'
      : '';
  if (nonNull.length === 0) {
    return shape.types.has('null')
      ? { problem: `the parameter accepts only null${where}`, undecided: false }
      : { problem: `no value satisfies the parameter's type constraints${where}${open}`, undecided: true };
  }
  const others = nonNull.filter((t) => !PRIMITIVES.has(t));
  if (others.length > 0) {
    const breach =
      nonNull.length === 1
        ? `the parameter's type${where} is ${listTypes(nonNull)}, not integer, string or boolean`
        : `the parameter accepts ${listTypes(nonNull)}${where}: ${listTypes(others)} is not integer, string or boolean`;
    return shape.unknown || shape.narrowed
      ? { problem: `${breach}, unless what was not followed narrows it${open}`, undecided: true }
      : { problem: breach, undecided: false };
  }
  return {
    problem: `the parameter accepts ${listTypes(nonNull)}${where}, not one primitive type${open}`,
    undecided: true,
  };
}
