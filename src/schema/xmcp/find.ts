import { isObject } from '../../core/jsonrpc.js';
import { slotOfKeyword, slotOfMember } from '../tool-schema/subschema-slots.js';

export interface HeaderAnnotation {
  /** JSON pointer (RFC 6901) of the subschema carrying `x-mcp-header`. */
  pointer: string;
  /** Property names from the root when the pointer is a pure `properties` chain. */
  propertyPath: string[] | undefined;
  value: unknown;
  schema: Record<string, unknown>;
}

export const MAX_WALK_NODES = 20_000;
export const MAX_WALK_DEPTH = 64;

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every `x-mcp-header` on a subschema (iterative, bounded walk). The walk goes by keyword position: the members of
 * `properties` are property names mapped to subschemas (a property may be called `x-mcp-header`, `default` or
 * `enum`), and keywords that hold data (`const`, `enum`, `default`, `examples`, vendor keywords) are never entered.
 * Only annotations whose pointer is `/properties/a(/properties/b)*` are statically reachable
 * (streamable-http § Custom Headers from Tool Parameters).
 */
export function findHeaderAnnotations(schema: unknown): { annotations: HeaderAnnotation[]; truncated: boolean } {
  const annotations: HeaderAnnotation[] = [];
  const stack: { node: unknown; segments: string[] }[] = [{ node: schema, segments: [] }];
  let visited = 0;
  let truncated = false;
  while (stack.length > 0) {
    const { node, segments } = stack.pop()!;
    if (++visited > MAX_WALK_NODES || segments.length > MAX_WALK_DEPTH * 2) {
      truncated = true;
      continue;
    }
    if (!isObject(node)) continue;
    if ('x-mcp-header' in node) {
      annotations.push({
        pointer: segments.map((s) => '/' + escapePointer(s)).join(''),
        propertyPath: propertyChain(segments),
        value: node['x-mcp-header'],
        schema: node,
      });
    }
    for (const [keyword, value] of Object.entries(node)) {
      const slot = slotOfKeyword(keyword, value);
      if (slot === 'schema') stack.push({ node: value, segments: [...segments, keyword] });
      else if (slot === 'schema-list')
        (value as unknown[]).forEach((member, i) =>
          stack.push({ node: member, segments: [...segments, keyword, String(i)] }),
        );
      else if (slot === 'schema-map') {
        for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
          if (slotOfMember(member) === 'schema') stack.push({ node: member, segments: [...segments, keyword, name] });
        }
      }
    }
  }
  annotations.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
  return { annotations, truncated };
}

function propertyChain(segments: string[]): string[] | undefined {
  if (segments.length === 0 || segments.length % 2 !== 0) return undefined;
  const names: string[] = [];
  for (let i = 0; i < segments.length; i += 2) {
    if (segments[i] !== 'properties') return undefined;
    names.push(segments[i + 1]!);
  }
  return names;
}
