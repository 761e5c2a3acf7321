import { describe, expect, it } from 'vitest';
import { sampleArguments } from './sample.js';
import { compileArgumentSchema } from './validate.js';

function expectValidSample(schema: Record<string, unknown>): Record<string, unknown> {
  const sampled = sampleArguments(schema);
  if (!sampled.ok) throw new Error(`expected a sample: ${sampled.reason}`);
  const compiled = compileArgumentSchema(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  expect(compiled.validator.validate(sampled.value)).toEqual({ valid: true, issues: [] });
  return sampled.value;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

describe('sampleArguments builds small valid objects', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['empty object schema', { type: 'object' }, {}],
    ['no-parameter schema', { type: 'object', additionalProperties: false }, {}],
    [
      'optional properties omitted',
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['b'] },
      { b: 0 },
    ],
    [
      'enum and const',
      {
        type: 'object',
        properties: { unit: { enum: ['celsius', 'kelvin'] }, v: { const: 2 } },
        required: ['unit', 'v'],
      },
      { unit: 'celsius', v: 2 },
    ],
    [
      'boolean and null',
      { type: 'object', properties: { b: { type: 'boolean' }, n: { type: 'null' } }, required: ['b', 'n'] },
      { b: false, n: null },
    ],
    [
      'type arrays take the first non-null type',
      { type: 'object', properties: { t: { type: ['null', 'integer'], minimum: 4 } }, required: ['t'] },
      { t: 4 },
    ],
    [
      'nested objects',
      {
        type: 'object',
        properties: {
          p: {
            type: 'object',
            properties: { q: { type: 'object', properties: { r: { type: 'string', minLength: 2 } }, required: ['r'] } },
            required: ['q'],
          },
        },
        required: ['p'],
      },
      { p: { q: { r: 'aa' } } },
    ],
    [
      'arrays with minItems',
      {
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string', maxLength: 1 }, minItems: 3 } },
        required: ['tags'],
      },
      { tags: ['a', 'a', 'a'] },
    ],
    [
      'prefixItems',
      {
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }], minItems: 2 } },
        required: ['pair'],
      },
      { pair: [0, false] },
    ],
    [
      'integer with exclusiveMinimum and multipleOf',
      { type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: 10, multipleOf: 7 } }, required: ['n'] },
      { n: 14 },
    ],
    [
      'number with exclusive bounds',
      {
        type: 'object',
        properties: { x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } },
        required: ['x'],
      },
      { x: 0.5 },
    ],
    [
      'negative range',
      { type: 'object', properties: { x: { type: 'integer', maximum: -3 } }, required: ['x'] },
      { x: -3 },
    ],
    [
      '$defs reference',
      {
        type: 'object',
        $defs: { id: { type: 'string', format: 'uuid' } },
        properties: { id: { $ref: '#/$defs/id' } },
        required: ['id'],
      },
      { id: '00000000-0000-4000-8000-000000000000' },
    ],
    [
      'draft-07 definitions',
      {
        $schema: DRAFT_07,
        type: 'object',
        definitions: { s: { type: 'string', minLength: 3 } },
        properties: { s: { $ref: '#/definitions/s' } },
        required: ['s'],
      },
      { s: 'aaa' },
    ],
    [
      'anyOf takes the first branch that works',
      {
        type: 'object',
        properties: {
          v: {
            anyOf: [
              { type: 'string', minLength: 3, maxLength: 1 },
              { type: 'integer', minimum: 8 },
            ],
          },
        },
        required: ['v'],
      },
      { v: 8 },
    ],
    [
      'oneOf skips a branch that also matches another one',
      {
        type: 'object',
        properties: { v: { oneOf: [{ type: 'number' }, { type: 'integer' }, { type: 'string' }] } },
        required: ['v'],
      },
      { v: 'a' },
    ],
    [
      'allOf merged',
      {
        type: 'object',
        allOf: [{ properties: { a: { type: 'integer' } }, required: ['a'] }, { properties: { a: { minimum: 5 } } }],
      },
      { a: 5 },
    ],
    [
      'pattern ^[a-z]{3}$',
      { type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]{3}$' } }, required: ['code'] },
      { code: 'aaa' },
    ],
    [
      'pattern with group and escapes',
      {
        type: 'object',
        properties: { p: { type: 'string', pattern: '^[A-Z]{2}-\\d{4}(\\.[a-f]+)?$' } },
        required: ['p'],
      },
      { p: 'AA-0000' },
    ],
    [
      'dependentRequired',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        required: ['a'],
        dependentRequired: { a: ['b'] },
      },
      { a: 'a', b: 'a' },
    ],
    [
      'minProperties fills optional properties',
      { type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'boolean' } }, minProperties: 1 },
      { a: false },
    ],
    [
      '__proto__ as a property name',
      { type: 'object', properties: { ['__proto__']: { type: 'string' } }, required: ['__proto__'] },
      JSON.parse('{"__proto__":"a"}') as Record<string, unknown>,
    ],
  ])('%s', (_name, schema, expected) => {
    const value = expectValidSample(schema);
    expect(value).toEqual(expected);
  });

  it.each([
    'date-time',
    'date',
    'time',
    'email',
    'uri',
    'uuid',
    'ipv4',
    'ipv6',
    'hostname',
    'duration',
    'uri-reference',
  ])('format %s', (format) => {
    const value = expectValidSample({ type: 'object', properties: { f: { type: 'string', format } }, required: ['f'] });
    expect(typeof value['f']).toBe('string');
  });

  it('format is an annotation: a string the other keywords allow when no well-formed one fits, a well-formed candidate preferred', () => {
    const tight = {
      type: 'object',
      properties: { d: { type: 'string', format: 'date-time', maxLength: 10 } },
      required: ['d'],
    };
    const sampled = sampleArguments(tight);
    expect(sampled).toMatchObject({ ok: true, value: { d: 'a' } });
    const compiled = compileArgumentSchema(tight);
    if (!compiled.ok || !sampled.ok) throw new Error('expected a sample');
    expect(compiled.validator.validate(sampled.value)).toMatchObject({
      valid: true,
      format: { rejectedUnder: 'assertion' },
    });
    const naiveExample = {
      type: 'object',
      properties: { d: { type: 'string', format: 'date-time' } },
      required: ['d'],
      examples: [{ d: '2026-01-01T10:00:00' }],
    };
    expect(sampleArguments(naiveExample)).toMatchObject({
      ok: true,
      value: { d: '2026-01-01T00:00:00Z' },
      how: 'constructed from the schema',
    });
  });

  it('prefers root examples[0], then root default, and skips invalid ones', () => {
    const base = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    expect(
      sampleArguments({ ...base, examples: [{ q: 'from example' }], default: { q: 'from default' } }),
    ).toMatchObject({ ok: true, value: { q: 'from example' }, how: 'examples[0]' });
    expect(sampleArguments({ ...base, examples: [{ wrong: 1 }], default: { q: 'from default' } })).toMatchObject({
      ok: true,
      value: { q: 'from default' },
      how: 'default',
    });
    expect(sampleArguments({ ...base, default: 'not an object' })).toMatchObject({ ok: true, value: { q: 'a' } });
  });

  it('uses nested defaults and falls back when they are invalid', () => {
    expect(
      expectValidSample({ type: 'object', properties: { n: { type: 'integer', default: 7 } }, required: ['n'] }),
    ).toEqual({ n: 7 });
    expect(
      sampleArguments({
        type: 'object',
        properties: { n: { type: 'integer', minimum: 9, default: 7 } },
        required: ['n'],
      }),
    ).toMatchObject({ ok: true, value: { n: 9 } });
  });

  it('returns a fresh copy each time', () => {
    const schema = { type: 'object', examples: [{ list: [1] }] };
    const first = sampleArguments(schema);
    if (!first.ok) throw new Error(first.reason);
    (first.value['list'] as number[]).push(2);
    expect(sampleArguments(schema)).toMatchObject({ value: { list: [1] } });
  });
});

describe('sampleArguments refuses what it cannot satisfy, with a reason', () => {
  it.each<[string, unknown, RegExp]>([
    ['a required property whose schema is false', { type: 'object', required: ['a'], properties: { a: false } }, /"a"/],
    [
      'minimum above maximum',
      { type: 'object', required: ['n'], properties: { n: { type: 'number', minimum: 5, maximum: 3 } } },
      /minimum 5, maximum 3/,
    ],
    [
      'minLength above maxLength',
      { type: 'object', required: ['s'], properties: { s: { type: 'string', minLength: 5, maxLength: 2 } } },
      /minLength 5 and maxLength 2/,
    ],
    [
      'an unsatisfiable pattern',
      { type: 'object', required: ['s'], properties: { s: { type: 'string', pattern: '^(?!a)[a]$' } } },
      /cannot generate a string for pattern/,
    ],
    [
      'a backreference pattern',
      { type: 'object', required: ['s'], properties: { s: { type: 'string', pattern: '^(x)\\1z$' } } },
      /cannot generate a string for pattern/,
    ],
    [
      'an external $ref',
      { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
      /never fetched/,
    ],
    ['draft-04', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, /draft-04/],
    [
      'a catastrophic pattern',
      { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } },
      /may backtrack catastrophically/,
    ],
    [
      'infinitely recursive required properties',
      {
        type: 'object',
        $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } }, required: ['next'] } },
        properties: { head: { $ref: '#/$defs/n' } },
        required: ['head'],
      },
      /deeper than/,
    ],
    [
      'a $ref cycle',
      {
        type: 'object',
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
        properties: { x: { $ref: '#/$defs/a' } },
        required: ['x'],
      },
      /./,
    ],
    ['a non-object root', { type: 'string' }, /not an object/],
    ['a boolean root', true, /must be a JSON object/],
    [
      'a required property whose enum is empty',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        required: ['c'],
        properties: { c: { type: 'string', enum: [] } },
      },
      /at \/c: enum is empty/,
    ],
    [
      'uniqueItems the sampler does not vary',
      {
        type: 'object',
        required: ['l'],
        properties: { l: { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'string' } } },
      },
      /duplicate/,
    ],
  ])('%s', (_name, schema, reason) => {
    const sampled = sampleArguments(schema);
    expect(sampled.ok).toBe(false);
    if (!sampled.ok) expect(sampled.reason).toMatch(reason);
  });

  it('refuses a 10,000-level schema quickly', () => {
    let schema: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 10_000; i += 1) schema = { type: 'object', properties: { a: schema }, required: ['a'] };
    const started = performance.now();
    expect(sampleArguments(schema)).toMatchObject({ ok: false, reason: expect.stringContaining('deeper than 64') });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stays within its work budget on a combinatorial schema', () => {
    const branches = Array.from({ length: 16 }, (_, i) => ({ type: 'string', minLength: 10 + i, maxLength: i }));
    const properties = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`p${i}`, { anyOf: [...branches, { $ref: '#/$defs/x' }] }]),
    );
    const schema = { type: 'object', $defs: { x: { anyOf: branches } }, properties, required: Object.keys(properties) };
    const started = performance.now();
    expect(sampleArguments(schema).ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('determinism', () => {
  it('gives the same output for the same schema', () => {
    const schemas = [
      {
        type: 'object',
        properties: {
          a: { type: 'string', pattern: '^[A-Z][a-z]+\\d?$' },
          b: { anyOf: [{ type: 'null' }, { type: 'number', minimum: 0.25 }] },
        },
        required: ['a', 'b'],
      },
      {
        type: 'object',
        properties: {
          when: { type: 'string', format: 'date-time' },
          n: { type: 'integer', multipleOf: 3, minimum: 100 },
        },
        required: ['when', 'n'],
      },
    ];
    for (const schema of schemas) {
      const first = sampleArguments(schema);
      const second = sampleArguments(structuredClone(schema));
      expect(first.ok).toBe(true);
      expect(second).toEqual(first);
    }
  });
});
