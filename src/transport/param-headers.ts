import { isObject } from '../core/jsonrpc.js';
import { encodeHeaderValue } from './header-encoding.js';
import { valueAtPath } from '../core/value-at-path.js';

export interface HeaderAnnotation {
  /** Property names from the schema root, one per `properties` step. */
  path: string[];
  /** The `x-mcp-header` value, i.e. the `{Name}` of `Mcp-Param-{Name}`. */
  name: string;
}

const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function collectAnnotations(
  schema: Record<string, unknown>,
  path: string[],
  ancestors: Set<object>,
  out: HeaderAnnotation[],
): void {
  if (ancestors.has(schema)) return;
  const annotation = schema['x-mcp-header'];
  if (path.length > 0 && typeof annotation === 'string' && HTTP_TOKEN.test(annotation)) {
    out.push({ path, name: annotation });
  }
  const properties = schema.properties;
  if (!isObject(properties)) return;
  ancestors.add(schema);
  for (const [key, child] of Object.entries(properties)) {
    if (isObject(child)) collectAnnotations(child, [...path, key], ancestors, out);
  }
  ancestors.delete(schema);
}

/**
 * Every well-formed `x-mcp-header` annotation reachable from the schema root through `properties` chains only.
 * Annotations elsewhere (items, anyOf, $defs, …) or with a non-token value are left out; when two names collide
 * case-insensitively, the first in document order wins.
 */
export function findHeaderAnnotations(inputSchema: unknown): readonly HeaderAnnotation[] {
  if (!isObject(inputSchema)) return [];
  let annotations = annotationsBySchema.get(inputSchema);
  if (!annotations) {
    annotations = collectHeaderAnnotations(inputSchema);
    annotationsBySchema.set(inputSchema, annotations);
  }
  return annotations;
}

/** Per listed schema: every tool call of an audit needs its annotations (a listed schema is never changed). */
const annotationsBySchema = new WeakMap<object, readonly HeaderAnnotation[]>();

function collectHeaderAnnotations(inputSchema: Record<string, unknown>): readonly HeaderAnnotation[] {
  const found: HeaderAnnotation[] = [];
  collectAnnotations(inputSchema, [], new Set(), found);
  const usedNames = new Set<string>();
  return found.filter(({ name }) => {
    const key = name.toLowerCase();
    if (usedNames.has(key)) return false;
    usedNames.add(key);
    return true;
  });
}

function isEncodable(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * The `Mcp-Param-{Name}` headers a conforming client sends for a `tools/call` with `args`.
 * Absent and `null` values produce no header; objects and arrays (never valid targets) are skipped too.
 */
export function paramHeaders(inputSchema: unknown, args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, name } of findHeaderAnnotations(inputSchema)) {
    const value = valueAtPath(args, path);
    if (isEncodable(value)) headers[`Mcp-Param-${name}`] = encodeHeaderValue(value);
  }
  return headers;
}
