import { isObject } from '../../src/core/jsonrpc.js';
import type { JsonSchema } from './tool-types.js';

/** One `x-mcp-header` annotation: the header name part and the argument path it mirrors. */
export interface HeaderAnnotation {
  header: string;
  path: readonly string[];
}

const cache = new WeakMap<JsonSchema, readonly HeaderAnnotation[]>();

/** Annotations reachable from the schema root through `properties` chains only. */
export function headerAnnotations(inputSchema: JsonSchema): readonly HeaderAnnotation[] {
  let found = cache.get(inputSchema);
  if (!found) {
    found = collect(inputSchema, []);
    cache.set(inputSchema, found);
  }
  return found;
}

function collect(schema: Record<string, unknown>, path: readonly string[]): HeaderAnnotation[] {
  const annotations: HeaderAnnotation[] = [];
  const header = schema['x-mcp-header'];
  if (typeof header === 'string' && path.length > 0) annotations.push({ header, path });
  if (isObject(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      if (isObject(child)) annotations.push(...collect(child, [...path, name]));
    }
  }
  return annotations;
}

export function valueAtPath(args: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
