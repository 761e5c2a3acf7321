import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_LIMITS, measureSchema, type SchemaLimits } from './bounds.js';

const limits = (overrides: Partial<SchemaLimits>): SchemaLimits => ({ ...DEFAULT_SCHEMA_LIMITS, ...overrides });

function nestedProperties(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < depth; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

function nestedData(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

describe('measureSchema', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_SCHEMA_LIMITS).toEqual({ maxDepth: 64, maxNodes: 10_000, maxBytes: 1024 * 1024 });
  });

  it('counts subschemas in arrays (allOf, anyOf, oneOf, prefixItems, array items) and maps (properties, $defs, patternProperties, dependentSchemas, definitions)', () => {
    const schema = {
      allOf: [{}, {}],
      anyOf: [true],
      oneOf: [false],
      prefixItems: [{}],
      items: [{}, {}],
      properties: { a: {} },
      $defs: { b: {} },
      definitions: { b2: {} },
      patternProperties: { '^x': {} },
      dependentSchemas: { c: {} },
    };
    expect(measureSchema(schema)).toEqual({ ok: true, depth: 2, nodes: 13 });
  });

  it('counts single-subschema keywords and draft-07 dependencies, but not dependencies given as string arrays', () => {
    const schema = {
      not: {},
      if: {},
      then: {},
      else: {},
      items: {},
      additionalProperties: false,
      contains: {},
      propertyNames: {},
      unevaluatedProperties: {},
      dependencies: { a: {}, b: ['a'] },
    };
    expect(measureSchema(schema)).toEqual({ ok: true, depth: 2, nodes: 11 });
  });

  it('does not count data (const, enum, default, examples, vendor keywords) as subschemas', () => {
    const schema = {
      const: { properties: { a: {} } },
      enum: [{}, {}],
      default: {},
      examples: [{}],
      'x-mcp-header': 'Region',
      'x-vendor': { not: {} },
    };
    expect(measureSchema(schema).nodes).toBe(1);
  });

  it('measures depth across nested subschemas', () => {
    expect(measureSchema({}).depth).toBe(1);
    expect(measureSchema({ properties: { a: { allOf: [{ items: {} }] } } })).toEqual({ ok: true, depth: 4, nodes: 4 });
    expect(measureSchema(nestedProperties(64))).toMatchObject({ ok: true, depth: 64 });
  });

  it('flags depth one past the limit', () => {
    expect(measureSchema(nestedProperties(5), limits({ maxDepth: 5 })).ok).toBe(true);
    const verdict = measureSchema(nestedProperties(6), limits({ maxDepth: 5 }));
    expect(verdict).toMatchObject({ ok: false, exceeded: 'depth', depth: 6 });
    expect(verdict.message).toBe('schema nesting is deeper than 5 levels');
  });

  it('stops early on 10,000-deep nesting, quickly and without recursion', () => {
    const schema = nestedProperties(10_000);
    const started = performance.now();
    const verdict = measureSchema(schema);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(verdict).toMatchObject({ ok: false, exceeded: 'depth', depth: 65 });
    expect(verdict.nodes).toBeLessThanOrEqual(66);
  });

  it('bounds deep nesting hidden in data such as default', () => {
    expect(measureSchema({ default: nestedData(10_000) })).toMatchObject({ ok: false, exceeded: 'depth' });
  });

  it('flags the node count one past the limit and stops there', () => {
    expect(measureSchema({ allOf: [{}, {}, {}] }, limits({ maxNodes: 4 })).ok).toBe(true);
    const verdict = measureSchema({ allOf: [{}, {}, {}, {}] }, limits({ maxNodes: 4 }));
    expect(verdict).toMatchObject({
      ok: false,
      exceeded: 'nodes',
      nodes: 5,
      message: 'schema has more than 4 subschemas',
    });

    const siblings = { properties: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, {}])) };
    expect(measureSchema(siblings)).toMatchObject({ ok: false, exceeded: 'nodes', nodes: 10_001 });
  });

  it('flags oversized JSON text', () => {
    expect(measureSchema({ description: 'x'.repeat(2 * 1024 * 1024) })).toMatchObject({ ok: false, exceeded: 'bytes' });
    expect(measureSchema({ pattern: 'a'.repeat(100) }, limits({ maxBytes: 50 }))).toMatchObject({
      ok: false,
      exceeded: 'bytes',
    });
    expect(measureSchema({ pattern: 'a'.repeat(10) }, limits({ maxBytes: 50 })).ok).toBe(true);
  });

  it('counts UTF-8 bytes of the JSON text exactly', () => {
    const schema = { description: 'é€😀', enum: [1, true, null, 'a"b'] };
    const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
    expect(measureSchema(schema, limits({ maxBytes: bytes })).ok).toBe(true);
    expect(measureSchema(schema, limits({ maxBytes: bytes - 1 })).exceeded).toBe('bytes');
  });

  it('terminates on a cyclic object (not JSON, but must not hang)', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    expect(measureSchema(cyclic)).toMatchObject({ ok: false, exceeded: 'depth' });
  });

  it('accepts scalar roots', () => {
    expect(measureSchema(true)).toEqual({ ok: true, depth: 1, nodes: 1 });
    expect(measureSchema(42)).toEqual({ ok: true, depth: 1, nodes: 0 });
  });
});
