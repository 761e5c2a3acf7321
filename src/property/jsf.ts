import { generateSync, type JsonSchema } from 'json-schema-faker';
import { isObject } from '../core/jsonrpc.js';
import { dialectOf } from '../schema/tool-schema/index.js';

/** Keywords whose values are data, never subschemas: nothing under them is rewritten. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

/**
 * json-schema-faker reads `items` the 2020-12 way. Before 2020-12 an array `items` is a tuple (`prefixItems`)
 * and `additionalItems` governs the rest, so older schemas are rewritten to that shape for generation only;
 * every generated value is still validated against the original schema under its own dialect.
 */
export function tupleItemsAs2020(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tupleItemsAs2020);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYWORDS.has(key) ? value : tupleItemsAs2020(value);
  if (Array.isArray(out['items'])) {
    out['prefixItems'] = out['items'];
    delete out['items'];
    if (Object.hasOwn(out, 'additionalItems')) out['items'] = out['additionalItems'];
    delete out['additionalItems'];
  }
  return out;
}

export class RefusedRef extends Error {
  constructor(ref: string) {
    super(
      `$ref ${ref.slice(0, 120)} is not followed: only same-document references are used, and nothing is ever ` +
        `fetched or read`,
    );
    this.name = 'RefusedRef';
  }
}

/**
 * A schema prepared once for json-schema-faker. Generation is synchronous (so no resolver can do I/O),
 * json-schema-faker resolves same-document `#…` references itself, and the resolver it falls back to for any other
 * reference refuses.
 */
export interface FakerInput {
  schema: JsonSchema;
}

export function fakerInput(schema: Record<string, unknown>): FakerInput {
  const dialect = dialectOf(schema).dialect;
  const prepared = dialect === '2020-12' ? schema : tupleItemsAs2020(schema);
  return { schema: prepared as JsonSchema };
}

/**
 * The edge of the value space: `empty` = required properties only, with empty strings and arrays; `required-only` =
 * required properties only (for schemas whose strings or arrays may not be empty).
 */
export type Edge = 'empty' | 'required-only';

const EDGE_OPTIONS: Record<Edge, Record<string, number>> = {
  empty: { optionalsProbability: 0, maxLength: 0, maxItems: 0 },
  'required-only': { optionalsProbability: 0 },
};

/** One value from json-schema-faker for a 32-bit seed, at the `edge` if asked; throws when it cannot produce one. */
export function fake(input: FakerInput, seed: number, edge?: Edge): unknown {
  return generateSync(input.schema, {
    seed,
    ...(edge ? EDGE_OPTIONS[edge] : {}),
    maxDepth: 6,
    maxDefaultItems: 4,
    refDepthMax: 4,
    refResolver: (ref: string) => {
      throw new RefusedRef(ref);
    },
    useDefaultValue: false,
    useExamplesValue: false,
    resolveJsonPath: false,
    failOnInvalidTypes: false,
  });
}
