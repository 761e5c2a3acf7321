/** Every subschema of a JSON Schema with its JSON Pointer, the root first; booleans and non-objects are skipped. */
export interface SchemaNode {
  pointer: string;
  schema: Record<string, unknown>;
}

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const ONE_KEYWORDS = [
  'items',
  'additionalProperties',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escape(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function schemaNodes(root: unknown, pointer = ''): SchemaNode[] {
  if (!isObject(root)) return [];
  const nodes: SchemaNode[] = [{ pointer, schema: root }];
  for (const keyword of MAP_KEYWORDS) {
    const map = root[keyword];
    if (isObject(map))
      for (const [key, sub] of Object.entries(map))
        nodes.push(...schemaNodes(sub, `${pointer}/${keyword}/${escape(key)}`));
  }
  for (const keyword of LIST_KEYWORDS) {
    const list = root[keyword];
    if (Array.isArray(list)) list.forEach((sub, i) => nodes.push(...schemaNodes(sub, `${pointer}/${keyword}/${i}`)));
  }
  for (const keyword of ONE_KEYWORDS) {
    const sub = root[keyword];
    if (Array.isArray(sub)) sub.forEach((s, i) => nodes.push(...schemaNodes(s, `${pointer}/${keyword}/${i}`)));
    else nodes.push(...schemaNodes(sub, `${pointer}/${keyword}`));
  }
  return nodes;
}

/** `/properties/filter`, or `the root` for the empty pointer: how a fix names the place. */
export function placeOf(pointer: string): string {
  return pointer === '' ? 'the root of inputSchema' : `\`${pointer}\``;
}
