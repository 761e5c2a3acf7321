import { isObject } from './schema-nodes.js';

/**
 * An inputSchema rewritten for OpenAI's strict mode, where that can be done mechanically: every object closed
 * (`additionalProperties: false`), every property required with the optional ones made nullable (null stands for "left
 * out"), `oneOf` read as `anyOf`. Undefined when an object takes keys it does not name (additionalProperties true or a
 * schema): closing it would drop them.
 */
export function strictRewrite(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    const items = schema.map(strictRewrite);
    return items.includes(undefined) ? undefined : items;
  }
  if (!isObject(schema)) return schema;
  if (opensObject(schema)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) {
      const properties: Record<string, unknown> = {};
      const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
      for (const [name, sub] of Object.entries(value)) {
        const rewritten = strictRewrite(sub);
        if (rewritten === undefined) return undefined;
        properties[name] = required.has(name) ? rewritten : nullable(rewritten);
      }
      out[key] = properties;
    } else if (['$defs', 'definitions'].includes(key) && isObject(value)) {
      const defs: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        const rewritten = strictRewrite(sub);
        if (rewritten === undefined) return undefined;
        defs[name] = rewritten;
      }
      out[key] = defs;
    } else if (['items', 'anyOf', 'oneOf', 'allOf', 'not'].includes(key)) {
      const rewritten = strictRewrite(value);
      if (rewritten === undefined) return undefined;
      out[key === 'oneOf' ? 'anyOf' : key] = rewritten;
    } else {
      out[key] = value;
    }
  }
  if (isObject(schema['properties'])) {
    out['required'] = Object.keys(schema['properties']);
    out['additionalProperties'] = false;
  } else if (schema['type'] === 'object') {
    out['additionalProperties'] = false;
  }
  return out;
}

/**
 * An object schema that lets other properties in: `additionalProperties: true` or a non-empty schema (the SDK's test is
 * Python truthiness).
 */
export function opensObject(schema: Record<string, unknown>): boolean {
  const extra = schema['additionalProperties'];
  return schema['type'] === 'object' && (extra === true || (isObject(extra) && Object.keys(extra).length > 0));
}

function nullable(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null))
    return nullable({ ...schema, enum: [...schema['enum'], null] });
  const type = schema['type'];
  if (typeof type === 'string') return type === 'null' ? schema : { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}
