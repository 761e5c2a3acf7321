import { isObject } from '../../core/jsonrpc.js';
import { escapePointerToken } from './json-pointer.js';
import { slotOfKeyword, slotOfMember } from './subschema-slots.js';

const MAX_NODES = 20_000;

/**
 * Calls `visit` with every subschema object of `schema` (the root included) and its JSON pointer, walked by keyword
 * position, so the values of data keywords (`enum`, `const`, `default`, vendor keywords) are never taken for schemas.
 * At most 20,000 subschemas are visited (callers measure the schema's bounds first).
 */
export function walkSubschemas(schema: unknown, visit: (node: Record<string, unknown>, at: string) => void): void {
  const stack: { node: unknown; at: string }[] = [{ node: schema, at: '' }];
  let visited = 0;
  while (stack.length > 0 && ++visited <= MAX_NODES) {
    const { node, at } = stack.pop()!;
    if (!isObject(node)) continue;
    visit(node, at);
    for (const [keyword, value] of Object.entries(node)) {
      const here = `${at}/${escapePointerToken(keyword)}`;
      const slot = slotOfKeyword(keyword, value);
      if (slot === 'schema') stack.push({ node: value, at: here });
      else if (slot === 'schema-list')
        (value as unknown[]).forEach((member, i) => stack.push({ node: member, at: `${here}/${i}` }));
      else if (slot === 'schema-map') {
        for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
          if (slotOfMember(member) === 'schema')
            stack.push({ node: member, at: `${here}/${escapePointerToken(name)}` });
        }
      }
    }
  }
}

/** Sorts findings by their JSON pointer, so reports do not depend on the walk's order. */
export function byPointer<T extends { at: string }>(found: T[]): T[] {
  return found.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
