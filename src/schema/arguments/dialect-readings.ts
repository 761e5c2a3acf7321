import { isObject } from '../../core/jsonrpc.js';
import { walkSubschemas } from '../tool-schema/index.js';
import { slotOfKeyword, slotOfMember } from '../tool-schema/subschema-slots.js';
import { setOwn } from './schema-node.js';

/*
 * Before 2025-11-25 MCP names no dialect for a schema without `$schema`: it may be read in any dialect. The readings
 * this tool can validate values in are 2020-12, 2019-09 and draft-07 (draft-06 shares ajv's draft-07 class, so it is no
 * reading of its own here). They differ only where a schema uses a keyword whose meaning changed between them.
 */

/** Keywords that mean something else, or nothing, in one of the readings. */
const CHANGED_KEYWORDS: ReadonlySet<string> = new Set([
  'additionalItems',
  'prefixItems',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minContains',
  'maxContains',
  '$id',
  '$anchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$dynamicRef',
  '$dynamicAnchor',
]);

/** Siblings of `$ref` that assert nothing, so draft-07 ignoring them changes no verdict. */
const INERT_BESIDE_REF: ReadonlySet<string> = new Set([
  '$ref',
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'definitions',
  '$defs',
]);

/**
 * Whether the readings of this schema may judge a value differently: it has a keyword whose meaning changed, an array
 * `items` (a tuple before 2020-12), or a `$ref` with asserting siblings (ignored up to draft-07, applied since
 * 2019-09).
 */
export function readingsMayDiffer(schema: unknown): boolean {
  let differ = false;
  walkSubschemas(schema, (node) => {
    if (differ) return;
    const keys = Object.keys(node);
    differ =
      keys.some((key) => CHANGED_KEYWORDS.has(key)) ||
      Array.isArray(node.items) ||
      (typeof node.$ref === 'string' && keys.some((key) => !INERT_BESIDE_REF.has(key)));
  });
  return differ;
}

/** Kept beside a `$ref` when its siblings are dropped: the containers other references resolve into. */
const KEPT_BESIDE_REF: ReadonlySet<string> = new Set(['$ref', '$schema', 'definitions', '$defs']);

/**
 * The schema as draft-07 (and draft-06, draft-04) reads it: "All other properties in a "$ref" object MUST be ignored",
 * which ajv's draft-07 class does not do by itself. A copy; the containers of definitions stay, so references into
 * them still resolve.
 */
export function withoutRefSiblings(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const entries = Object.entries(schema).filter(([key]) => typeof schema.$ref !== 'string' || KEPT_BESIDE_REF.has(key));
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of entries) {
    const slot = slotOfKeyword(keyword, value);
    let kept = value;
    if (slot === 'schema') kept = withoutRefSiblings(value);
    else if (slot === 'schema-list') kept = (value as unknown[]).map((member) => withoutRefSiblings(member));
    else if (slot === 'schema-map') {
      const map: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value as Record<string, unknown>))
        setOwn(map, name, slotOfMember(member) === 'schema' ? withoutRefSiblings(member) : member);
      kept = map;
    }
    setOwn(copy, keyword, kept);
  }
  return copy;
}

/** Whether any `$ref` of the schema has a sibling draft-07 ignores. */
export function hasRefSiblings(schema: unknown): boolean {
  let found = false;
  walkSubschemas(schema, (node) => {
    if (!found && typeof node.$ref === 'string') found = Object.keys(node).some((key) => !KEPT_BESIDE_REF.has(key));
  });
  return found;
}
