import { isObject } from '../../core/jsonrpc.js';
import { declaredTypes, setOwn, type SchemaNode, type SchemaObject } from './schema-node.js';

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
/** Annotations of one branch say nothing about the merged schema. */
const DROPPED = new Set(['examples', 'default', 'title', 'description', '$comment']);

function mergeProperties(left: SchemaObject, right: SchemaObject): SchemaObject {
  const merged: SchemaObject = { ...left };
  for (const [name, schema] of Object.entries(right)) {
    setOwn(merged, name, Object.hasOwn(merged, name) ? { allOf: [merged[name], schema] } : schema);
  }
  return merged;
}

function mergeTypes(left: string[], right: string[]): string[] {
  const common = left.filter((type) => right.includes(type));
  if (left.includes('number') && right.includes('integer') && !common.includes('integer')) common.push('integer');
  if (right.includes('number') && left.includes('integer') && !common.includes('integer')) common.push('integer');
  return common;
}

function mergeEnums(left: unknown[], right: unknown[]): unknown[] {
  const rightTexts = new Set(right.map((value) => JSON.stringify(value)));
  return left.filter((value) => rightTexts.has(JSON.stringify(value)));
}

function mergeKeyword(merged: SchemaObject, keyword: string, value: unknown): void {
  const current = merged[keyword];
  if (!Object.hasOwn(merged, keyword)) {
    setOwn(merged, keyword, value);
  } else if (keyword === 'properties' && isObject(current) && isObject(value)) {
    merged[keyword] = mergeProperties(current, value);
  } else if (keyword === 'required' && Array.isArray(current) && Array.isArray(value)) {
    merged[keyword] = [...new Set([...current, ...value])];
  } else if (keyword === 'enum' && Array.isArray(current) && Array.isArray(value)) {
    merged[keyword] = mergeEnums(current, value);
  } else if (keyword === 'allOf' && Array.isArray(current) && Array.isArray(value)) {
    merged[keyword] = [...current, ...value];
  } else if (typeof current === 'number' && typeof value === 'number' && LOWER_BOUNDS.has(keyword)) {
    merged[keyword] = Math.max(current, value);
  } else if (typeof current === 'number' && typeof value === 'number' && UPPER_BOUNDS.has(keyword)) {
    merged[keyword] = Math.min(current, value);
  } else if (keyword === 'additionalProperties' && value === false) {
    merged[keyword] = false;
  }
}

/**
 * A naive conjunction of two schemas: properties and `required` are united, bounds tightened, `type` and
 * `enum` intersected; for every other keyword the first schema wins. The caller re-validates the result.
 */
export function mergeSchemas(base: SchemaObject, extra: SchemaNode): SchemaNode {
  if (extra === false) return false;
  if (extra === true) return base;
  const merged: SchemaObject = { ...base };
  const baseTypes = declaredTypes(base);
  const extraTypes = declaredTypes(extra);
  for (const [keyword, value] of Object.entries(extra)) {
    if (DROPPED.has(keyword) || keyword === 'type') continue;
    mergeKeyword(merged, keyword, value);
  }
  if (baseTypes !== undefined && extraTypes !== undefined) merged['type'] = mergeTypes(baseTypes, extraTypes);
  else if (extraTypes !== undefined) merged['type'] = extraTypes;
  return merged;
}
