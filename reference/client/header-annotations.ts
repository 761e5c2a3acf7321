import { isObject } from '../../src/core/jsonrpc.js';

/** An `x-mcp-header` annotation on a property reachable through `properties` keys only. */
export interface HeaderAnnotation {
  /** The annotation value: the header is `Mcp-Param-<header>`. */
  header: string;
  /** Property names from the root of the arguments to the annotated value. */
  path: readonly string[];
  /** The annotated property schema's `type`, as written. */
  type: unknown;
}

export interface AnnotationReport {
  /** Annotations on `properties` chains whose value is a string, valid or not. */
  annotations: HeaderAnnotation[];
  /** Why the tool definition is invalid; empty when every annotation is valid. */
  problems: string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- a header value may not hold control characters
const CONTROL = /[\x00-\x1f\x7f]/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/** Keywords whose value is instance data, never a schema: an `x-mcp-header` key inside them is not an annotation. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required', 'dependentRequired']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/**
 * Checks every `x-mcp-header` annotation in an `inputSchema` against the Streamable HTTP § Schema Extension
 * constraints: a non-empty RFC 9110 token without control characters, case-insensitively unique, on a
 * property of type string, integer or boolean, reachable from the root through `properties` keys only.
 */
export function checkHeaderAnnotations(inputSchema: unknown): AnnotationReport {
  const report: AnnotationReport = { annotations: [], problems: [] };
  const seen = new Map<string, string>();
  walk(inputSchema, [], true, '', report, seen);
  return report;
}

function walk(
  schema: unknown,
  path: readonly string[],
  reachable: boolean,
  pointer: string,
  report: AnnotationReport,
  seen: Map<string, string>,
): void {
  if (!isObject(schema)) return;
  if (Object.hasOwn(schema, 'x-mcp-header')) {
    checkOne(schema, path, reachable, pointer, report, seen);
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'x-mcp-header' || DATA_KEYWORDS.has(keyword)) continue;
    const here = `${pointer}/${escapePointer(keyword)}`;
    if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const onChain = reachable && keyword === 'properties';
        walk(child, onChain ? [...path, name] : path, onChain, `${here}/${escapePointer(name)}`, report, seen);
      }
    } else if (Array.isArray(value)) {
      value.forEach((child, i) => walk(child, path, false, `${here}/${i}`, report, seen));
    } else {
      walk(value, path, false, here, report, seen);
    }
  }
}

function checkOne(
  schema: Record<string, unknown>,
  path: readonly string[],
  reachable: boolean,
  pointer: string,
  report: AnnotationReport,
  seen: Map<string, string>,
): void {
  const value = schema['x-mcp-header'];
  const where = `x-mcp-header at ${pointer === '' ? 'the schema root' : pointer}`;
  const fail = (reason: string): void => {
    report.problems.push(`${where} ${reason}`);
  };
  if (typeof value !== 'string') return fail('is not a string');
  const onProperty = reachable && path.length > 0;
  if (onProperty) report.annotations.push({ header: value, path, type: schema.type });
  if (value === '') return fail('is empty');
  if (CONTROL.test(value)) return fail(`${JSON.stringify(value)} contains control characters`);
  if (!TOKEN.test(value)) return fail(`${JSON.stringify(value)} is not an RFC 9110 token`);
  if (!onProperty) {
    return fail(
      path.length === 0 && reachable
        ? 'is on the root schema, not on a property'
        : 'is not reachable through properties keys only',
    );
  }
  if (!HEADER_TYPES.has(schema.type)) {
    return fail(
      `is on a property whose type is ${JSON.stringify(schema.type) ?? 'missing'} (must be "string", "integer" ` +
        `or "boolean")`,
    );
  }
  const folded = value.toLowerCase();
  const first = seen.get(folded);
  if (first !== undefined) return fail(`"${value}" duplicates "${first}" (case-insensitively)`);
  seen.set(folded, value);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
