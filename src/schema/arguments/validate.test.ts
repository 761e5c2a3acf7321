import { startCanary } from '../../../test/helpers/canary.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileArgumentSchema, type ArgumentValidator } from './validate.js';

function validatorFor(schema: unknown): ArgumentValidator {
  const compiled = compileArgumentSchema(schema);
  if (!compiled.ok) throw new Error(`expected the schema to compile: ${compiled.reason}`);
  return compiled.validator;
}

function deepSchema(levels: number): unknown {
  let schema: unknown = { type: 'object' };
  for (let i = 0; i < levels; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('compileArgumentSchema', () => {
  it('validates with every supported dialect and reports ajv issues', () => {
    const body = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] };
    for (const $schema of [
      undefined,
      'https://json-schema.org/draft/2020-12/schema',
      'http://json-schema.org/draft/2020-12/schema#',
      'https://json-schema.org/draft/2019-09/schema',
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-06/schema#',
    ]) {
      const validator = validatorFor($schema === undefined ? body : { $schema, ...body });
      expect(validator.validate({ n: 2 })).toEqual({ valid: true, issues: [] });
      const rejected = validator.validate({ n: 0 });
      expect(rejected.valid).toBe(false);
      expect(rejected.issues[0]).toMatchObject({ instancePath: '/n', keyword: 'minimum' });
    }
  });

  it('uses the 2020-12 vocabulary by default and the draft-07 one when declared', () => {
    const tuple = {
      type: 'object',
      properties: { t: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
    };
    expect(validatorFor(tuple).validate({ t: ['a', 'b'] }).valid).toBe(false);
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { t: { items: [{ type: 'string' }], additionalItems: false } },
    };
    expect(validatorFor(draft07).validate({ t: ['a', 'b'] }).valid).toBe(false);
    expect(validatorFor(draft07).validate({ t: ['a'] }).valid).toBe(true);
  });

  it('accepts x-mcp-header and other unknown keywords', () => {
    const validator = validatorFor({
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region', 'x-vendor': { any: 1 } } },
    });
    expect(validator.validate({ region: 'eu' })).toEqual({ valid: true, issues: [] });
    expect(validator.validate({ region: 1 }).issues[0]).toMatchObject({ keyword: 'type' });
  });
  it('refuses draft-04, unknown dialects and non-schemas with a reason', () => {
    const draft04 = compileArgumentSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' });
    expect(draft04).toMatchObject({ ok: false, reason: expect.stringContaining('draft-04') });
    expect(compileArgumentSchema({ $schema: 'https://example.com/my-dialect', type: 'object' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('https://example.com/my-dialect'),
    });
    expect(compileArgumentSchema(null)).toMatchObject({ ok: false });
    expect(compileArgumentSchema('object')).toMatchObject({ ok: false });
  });

  it('refuses invalid schemas and dangling local references instead of throwing', () => {
    expect(compileArgumentSchema({ type: 'object', properties: { a: { type: 'strnig' } } })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('schema'),
    });
    expect(compileArgumentSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('#/$defs/missing'),
    });
    expect(
      compileArgumentSchema({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }),
    ).toMatchObject({ ok: false });
  });

  it.each([
    ['^(?P<id>\\d+)$', '/properties/a/pattern'],
    ['^\\d+\\Z', '/properties/a/pattern'],
  ])('refuses the non-ECMA pattern %s with its location instead of throwing', (pattern, at) => {
    expect(compileArgumentSchema({ type: 'object', properties: { a: { type: 'string', pattern } } })).toMatchObject({
      ok: false,
      reason: expect.stringContaining(`at ${at} is not an ECMA-262 regular expression`),
    });
    expect(compileArgumentSchema({ type: 'object', patternProperties: { [pattern]: {} } })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('patternProperties'),
    });
  });

  it('refuses a catastrophic pattern within milliseconds', () => {
    const started = performance.now();
    const compiled = compileArgumentSchema({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^(a+)+$' } },
    });
    expect(compiled).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/pattern \^\(a\+\)\+\$ may backtrack catastrophically/),
    });
    expect(
      compileArgumentSchema({ type: 'object', patternProperties: { '(x*)*y': { type: 'string' } } }),
    ).toMatchObject({ ok: false });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses a 10,000-level schema quickly', () => {
    const schema = deepSchema(10_000);
    const started = performance.now();
    expect(compileArgumentSchema(schema)).toMatchObject({ ok: false, reason: expect.stringContaining('deeper') });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('compiles a large definition referenced many times in bounded time (no inlining blow-up)', () => {
    const leaf = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 200 }, (_, i) => [`k${i}`, { type: 'string', minLength: 1 }]),
      ),
    };
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { $ref: '#/$defs/leaf' }]));
    const started = performance.now();
    const validator = validatorFor({ type: 'object', $defs: { leaf }, properties });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(validator.validate({ p0: { k0: '' } }).issues[0]).toMatchObject({
      instancePath: '/p0/k0',
      keyword: 'minLength',
    });
  });

  it('caches by JSON text and keeps $id-bearing schemas independent', () => {
    const first = compileArgumentSchema({ $id: 'https://example.com/tool.json', type: 'object', required: ['a'] });
    const again = compileArgumentSchema({ $id: 'https://example.com/tool.json', type: 'object', required: ['a'] });
    expect(again).toBe(first);
    const other = validatorFor({ $id: 'https://example.com/tool.json', type: 'object', required: ['b'] });
    expect(other.validate({ a: 1 }).valid).toBe(false);
    expect(other.validate({ b: 1 }).valid).toBe(true);
  });

  it('handles recursive same-document references', () => {
    const validator = validatorFor({
      type: 'object',
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      properties: { head: { $ref: '#/$defs/node' } },
    });
    expect(validator.validate({ head: { next: { next: {} } } }).valid).toBe(true);
    expect(validator.validate({ head: { next: { next: 3 } } }).issues[0]).toMatchObject({
      instancePath: '/head/next/next',
    });
  });
});

describe('a schema without $schema on a revision that names no default dialect (any-dialect)', () => {
  // draft-07 ignores the siblings of $ref; 2019-09 and 2020-12 apply them.
  const capped = {
    type: 'object',
    properties: { n: { $ref: '#/definitions/count', maximum: 10 } },
    required: ['n'],
    definitions: { count: { type: 'integer', minimum: 0 } },
  };
  const anyDialect = (schema: unknown) => {
    const compiled = compileArgumentSchema(schema, 'any-dialect');
    if (!compiled.ok) throw new Error(compiled.reason);
    return compiled.validator;
  };

  it('a value the readings disagree on is valid, with each reading', () => {
    const verdict = anyDialect(capped).validate({ n: 11 });
    expect(verdict.valid).toBe(true);
    expect(verdict.readings?.map((r) => [r.dialect, r.valid])).toEqual([
      ['2020-12', false],
      ['2019-09', false],
      ['draft-07', true],
    ]);
    expect(verdict.readings![0]!.issues[0]).toMatchObject({ instancePath: '/n', keyword: 'maximum' });
    // The default reading alone (2025-11-25 on) still rejects it.
    expect(validatorFor(capped).validate({ n: 11 }).valid).toBe(false);
  });

  it('a value every reading rejects is invalid, as 2020-12 says; one every reading accepts is valid, without readings', () => {
    expect(anyDialect(capped).validate({ n: -1 })).toMatchObject({
      valid: false,
      issues: [expect.objectContaining({ instancePath: '/n', keyword: 'minimum' })],
    });
    expect(anyDialect(capped).validate({ n: 3 })).toEqual({ valid: true, issues: [] });
  });

  it('a declared draft-07 schema ignores the siblings of $ref too', () => {
    expect(validatorFor({ $schema: 'http://json-schema.org/draft-07/schema#', ...capped }).validate({ n: 11 })).toEqual(
      { valid: true, issues: [] },
    );
    expect(
      validatorFor({ $schema: 'https://json-schema.org/draft/2019-09/schema', ...capped }).validate({ n: 11 }).valid,
    ).toBe(false);
  });

  it('a schema whose readings cannot differ is compiled once, as 2020-12', () => {
    const plain = { type: 'object', properties: { n: { type: 'integer', maximum: 10 } } };
    expect(compileArgumentSchema(plain, 'any-dialect')).toBe(compileArgumentSchema(plain));
  });
});

describe('format is an annotation', () => {
  const when = { type: 'object', properties: { when: { type: 'string', format: 'date-time' } }, required: ['when'] };

  it('a value that breaks only a format is valid, with the format issue reported apart', () => {
    for (const schema of [
      when,
      { $schema: 'http://json-schema.org/draft-07/schema#', ...when },
      { $schema: 'https://json-schema.org/draft/2019-09/schema', ...when },
    ]) {
      const verdict = validatorFor(schema).validate({ when: '2026-01-01T10:00:00' });
      expect(verdict).toMatchObject({ valid: true, issues: [], format: { rejectedUnder: 'assertion' } });
      expect(verdict.format!.issues).toEqual([
        expect.objectContaining({ instancePath: '/when', keyword: 'format', params: { format: 'date-time' } }),
      ]);
    }
    expect(validatorFor(when).validate({ when: '2026-01-01T10:00:00Z' })).toEqual({ valid: true, issues: [] });
  });

  it('a real issue next to a format issue is still invalid, and only the real issue is reported', () => {
    const schema = { ...when, properties: { ...when.properties, n: { type: 'integer' } } };
    const verdict = validatorFor(schema).validate({ when: 'yesterday', n: 'x' });
    expect(verdict.valid).toBe(false);
    expect(verdict.issues.map((issue) => `${issue.instancePath} ${issue.keyword}`)).toEqual(['/n type']);
    expect(verdict.format).toBeUndefined();
    expect(validatorFor(when).validate({ when: 5 })).toMatchObject({
      valid: false,
      issues: [{ instancePath: '/when', keyword: 'type' }],
    });
  });

  it('anyOf: a format that rules out the only matching branch leaves the value valid, with the format issue apart', () => {
    const validator = validatorFor({
      type: 'object',
      properties: { at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'integer' }] } },
    });
    expect(validator.validate({ at: 'noon' })).toMatchObject({
      valid: true,
      format: { rejectedUnder: 'assertion', issues: [{ keyword: 'format', instancePath: '/at' }] },
    });
    expect(validator.validate({ at: 5 })).toEqual({ valid: true, issues: [] });
    expect(validator.validate({ at: true })).toMatchObject({ valid: false });
  });

  it('oneOf: where only a format tells the branches apart, the verdict hinges on format and the value is not invalid', () => {
    const validator = validatorFor({
      type: 'object',
      properties: {
        ip: {
          oneOf: [
            { type: 'string', format: 'ipv4' },
            { type: 'string', format: 'ipv6' },
          ],
        },
      },
    });
    const verdict = validator.validate({ ip: '192.0.2.1' });
    expect(verdict).toMatchObject({ valid: true, issues: [], format: { rejectedUnder: 'annotation' } });
    expect(verdict.format!.issues.map((issue) => issue.keyword)).toContain('oneOf');
    // With formats as annotations both branches match, asserted neither does: no reading accepts it.
    expect(validator.validate({ ip: 'x' })).toMatchObject({ valid: false });
    expect(validator.validate({ ip: 7 })).toMatchObject({ valid: false });
  });

  it('a property named "format" is not the format keyword', () => {
    const validator = validatorFor({ type: 'object', properties: { format: { type: 'string' } } });
    expect(validator.validate({ format: 'x' })).toEqual({ valid: true, issues: [] });
  });
});

describe('an empty enum (valid from draft-06 on) admits no value', () => {
  it('compiles, judges every value at it invalid with an enum issue, and leaves the rest of the schema working', () => {
    for (const $schema of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema']) {
      const validator = validatorFor({
        $schema,
        type: 'object',
        properties: { c: { type: 'string', enum: [], allOf: [{ minLength: 1 }] }, q: { type: 'string' } },
        required: ['q'],
      });
      expect(validator.validate({ q: 'a' })).toEqual({ valid: true, issues: [] });
      expect(validator.validate({ q: 'a', c: 'x' })).toMatchObject({
        valid: false,
        issues: [
          { instancePath: '/c', keyword: 'enum', schemaPath: '#/properties/c/enum', params: { allowedValues: [] } },
        ],
      });
    }
  });
});

describe('never fetching', () => {
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let base = '';
  let requests: string[] = [];

  beforeAll(async () => {
    canary = await startCanary();
    ({ base, requests } = canary);
  });

  afterAll(() => canary.close());

  it('refuses external $ref, $id-relative and $dynamicRef targets without contacting them', async () => {
    const schemas = [
      { type: 'object', properties: { a: { $ref: `${base}/a.json` } } },
      { $id: `${base}/root.json`, type: 'object', properties: { a: { $ref: 'sibling.json' } } },
      { type: 'object', properties: { a: { $dynamicRef: `${base}/d.json#meta` } } },
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { $ref: `${base}/b.json#/definitions/x` } },
      },
    ];
    const results = schemas.map((schema) => compileArgumentSchema(schema));
    await new Promise((settle) => setTimeout(settle, 50));
    for (const result of results)
      expect(result).toMatchObject({
        ok: false,
        reason: expect.stringContaining('cannot be resolved in this document'),
      });
    expect(requests).toEqual([]);
  });
});
