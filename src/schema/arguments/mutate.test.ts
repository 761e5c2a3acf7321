import { describe, expect, it } from 'vitest';
import { invalidArguments, pickInvalidArguments, type InvalidArguments } from './mutate.js';
import { sampleArguments } from './sample.js';
import { compileArgumentSchema } from './validate.js';

function mutationsOf(schema: Record<string, unknown>): {
  valid: Record<string, unknown>;
  mutations: InvalidArguments[];
} {
  const sampled = sampleArguments(schema);
  if (!sampled.ok) throw new Error(`expected a sample: ${sampled.reason}`);
  return { valid: sampled.value, mutations: invalidArguments(schema, sampled.value) };
}

function expectAllRejected(schema: Record<string, unknown>, mutations: readonly InvalidArguments[]): void {
  const compiled = compileArgumentSchema(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  for (const mutation of mutations)
    expect(compiled.validator.validate(mutation.value).valid, mutation.description).toBe(false);
}

const RICH = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2, maxLength: 10 },
    unit: { enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    note: { type: ['string', 'null'] },
  },
  required: ['city', 'unit', 'days', 'note'],
  additionalProperties: false,
};

describe('invalidArguments', () => {
  it('breaks one top-level constraint per mutation, each rejected by the validator', () => {
    const { valid, mutations } = mutationsOf(RICH);
    expect(valid).toEqual({ city: 'aa', unit: 'celsius', days: 1, note: 'a' });
    expectAllRejected(RICH, mutations);
    const kinds = new Set(mutations.map((mutation) => mutation.kind));
    for (const kind of [
      'missing-required',
      'wrong-type',
      'enum-miss',
      'below-minimum',
      'above-maximum',
      'too-short',
      'too-long',
      'extra-property',
      'null-value',
    ] as const) {
      expect(kinds, kind).toContain(kind);
    }
    expect(mutations.length).toBeLessThanOrEqual(12);
    expect(mutations.find((mutation) => mutation.kind === 'below-minimum')).toMatchObject({
      path: '/days',
      value: { ...valid, days: 0 },
    });
    expect(mutations.find((mutation) => mutation.kind === 'above-maximum')).toMatchObject({
      path: '/days',
      value: { ...valid, days: 8 },
    });
    expect(mutations.find((mutation) => mutation.kind === 'too-short')).toMatchObject({
      path: '/city',
      value: { ...valid, city: 'a' },
    });
    expect(mutations.find((mutation) => mutation.kind === 'too-long')?.value['city']).toHaveLength(11);
    expect(mutations.find((mutation) => mutation.kind === 'extra-property')).toMatchObject({
      path: '/unexpectedProperty',
    });
  });

  it('does not offer null where null is allowed, nor an extra property where one is allowed', () => {
    const { mutations } = mutationsOf({ ...RICH, additionalProperties: true });
    expect(mutations.some((mutation) => mutation.kind === 'null-value' && mutation.path === '/note')).toBe(false);
    expect(mutations.some((mutation) => mutation.kind === 'extra-property')).toBe(false);
  });

  it('changes only the targeted property and leaves the valid object untouched', () => {
    const { valid, mutations } = mutationsOf(RICH);
    const before = structuredClone(valid);
    for (const mutation of mutations) {
      const changed = [...new Set([...Object.keys(valid), ...Object.keys(mutation.value)])].filter(
        (name) => JSON.stringify(valid[name]) !== JSON.stringify(mutation.value[name]),
      );
      expect(changed.map((name) => `/${name}`)).toEqual([mutation.path]);
    }
    expect(valid).toEqual(before);
  });

  it('follows $ref, allOf and the applicable oneOf branch at the root', () => {
    const schema = {
      type: 'object',
      $defs: { count: { type: 'integer', exclusiveMinimum: 0, multipleOf: 5 } },
      allOf: [{ properties: { n: { $ref: '#/$defs/count' } }, required: ['n'] }],
      oneOf: [
        { properties: { id: { type: 'string' } }, required: ['id'] },
        { properties: { name: { type: 'string' } }, required: ['name'] },
      ],
    };
    const { valid, mutations } = mutationsOf(schema);
    expect(valid).toEqual({ n: 5, id: 'a' });
    expectAllRejected(schema, mutations);
    expect(mutations.map((mutation) => `${mutation.kind} ${mutation.path}`)).toEqual(
      expect.arrayContaining(['missing-required /n', 'missing-required /id', 'below-minimum /n', 'wrong-type /id']),
    );
    expect(mutations.find((mutation) => mutation.kind === 'below-minimum')?.value['n']).toBe(0);
  });

  it('a mutation that breaks only a format is no invalid argument: format is an annotation', () => {
    const schema = {
      type: 'object',
      properties: { day: { type: 'string', format: 'date', pattern: '^.*$' } },
      required: ['day'],
    };
    const { valid, mutations } = mutationsOf(schema);
    expect(valid).toEqual({ day: '2026-01-01' });
    expect(mutations.map((mutation) => mutation.kind).sort()).toEqual(['missing-required', 'null-value', 'wrong-type']);
    expectAllRejected(schema, mutations);
  });

  it('returns nothing for an invalid starting object or an unusable schema', () => {
    expect(invalidArguments(RICH, { city: 'x' })).toEqual([]);
    expect(invalidArguments({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, {})).toEqual([]);
    expect(invalidArguments('not a schema', {})).toEqual([]);
  });

  it('caps the number of mutations and keeps variety across kinds', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string', maxLength: 3 }]),
    );
    const schema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    const { mutations } = mutationsOf(schema);
    expect(mutations).toHaveLength(12);
    expect(new Set(mutations.map((mutation) => mutation.kind))).toEqual(
      new Set(['missing-required', 'wrong-type', 'too-long', 'extra-property', 'null-value']),
    );
  });

  it('is deterministic', () => {
    const first = mutationsOf(RICH).mutations;
    const second = mutationsOf(structuredClone(RICH)).mutations;
    expect(second).toEqual(first);
  });
});

describe('invalidArguments of a schema without $schema read in any dialect (before 2025-11-25)', () => {
  it('makes no mutation some reading accepts: a maximum beside $ref binds in 2020-12, not in draft-07', () => {
    const schema = {
      type: 'object',
      properties: { n: { $ref: '#/definitions/count', maximum: 10 } },
      required: ['n'],
      definitions: { count: { type: 'integer', minimum: 0 } },
    };
    const valid = { n: 3 };
    const described = (undeclared?: 'any-dialect') =>
      invalidArguments(schema, valid, undeclared).map((m) => m.description);
    expect(described()).toContain('"n" set to 11, above its maximum');
    const anyDialect = described('any-dialect');
    expect(anyDialect).not.toContain('"n" set to 11, above its maximum');
    // What every reading rejects is still a mutation.
    expect(anyDialect).toEqual(
      expect.arrayContaining(['required property "n" removed', '"n" set to -1, below its minimum']),
    );
  });
});

describe('how a looser validator reads a mutation', () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer' },
      metric: { type: 'boolean' },
      note: { type: 'string' },
    },
    required: ['city', 'days', 'metric'],
    additionalProperties: false,
  };
  const valid = { city: 'Oslo', days: 3, metric: true, note: 'x' };
  const all = (pick: number) => pickInvalidArguments(schema, valid, pick)!;
  const picked = Array.from({ length: 200 }, (_, pick) => all(pick));
  const wrongTypes = (name: string) => picked.filter((m) => m.kind === 'wrong-type' && m.path === `/${name}`);

  it('probes a property first with a wrong type no coercion converts, so the scripted probe tests real type checking', () => {
    const first = invalidArguments(schema, valid).filter((m) => m.kind === 'wrong-type');
    expect(first.map((m) => [m.path, m.value[m.path.slice(1)], m.lenientReading])).toEqual([
      ['/city', [], undefined],
      ['/days', 'not-the-right-type', undefined],
      ['/metric', 'not-the-right-type', undefined],
      ['/note', [], undefined],
    ]);
  });

  it('marks the wrong types a coercing validator converts (its own value recoded among them), and only those', () => {
    const coerced = (name: string) =>
      wrongTypes(name)
        .filter((m) => m.lenientReading === 'coercion')
        .map((m) => m.value[name]);
    expect(new Set(coerced('city'))).toEqual(new Set([12.5, 12345, true]));
    expect(new Set(coerced('days'))).toEqual(new Set([true, '3']));
    expect(new Set(coerced('metric'))).toEqual(new Set(['true']));
    for (const name of ['city', 'days', 'metric']) {
      expect(
        wrongTypes(name)
          .filter((m) => m.lenientReading === undefined)
          .map((m) => m.value[name]),
      ).toEqual(expect.arrayContaining([[], {}]));
    }
  });

  it('reads null as absence only for an optional property, and an undeclared property as set aside', () => {
    const nulls = picked.filter((m) => m.kind === 'null-value');
    expect(new Set(nulls.map((m) => `${m.path} ${m.lenientReading ?? 'none'}`))).toEqual(
      new Set(['/city none', '/days none', '/metric none', '/note null-as-absent']),
    );
    expect(picked.find((m) => m.kind === 'extra-property')?.lenientReading).toBe('ignored');
    expect(picked.find((m) => m.kind === 'missing-required')?.lenientReading).toBeUndefined();
  });
});

describe('pickInvalidArguments', () => {
  it('returns one rejected mutation per pick, taking the kinds round-robin (pick 0: a dropped required property)', () => {
    const { valid } = mutationsOf(RICH);
    const picked = Array.from({ length: 18 }, (_, pick) => pickInvalidArguments(RICH, valid, pick));
    expect(picked.every((m) => m !== undefined)).toBe(true);
    expectAllRejected(RICH, picked as InvalidArguments[]);
    expect(picked[0]!.kind).toBe('missing-required');
    const firstRound = new Set(picked.slice(0, 9).map((m) => m!.kind));
    expect(firstRound.size).toBe(9);
    expect(new Set(picked.map((m) => m!.kind))).toEqual(new Set(invalidArguments(RICH, valid).map((m) => m.kind)));
  });

  it('skips proposals the schema accepts, and gives up only when every proposal is accepted', () => {
    const open = { type: 'object', properties: { note: {} } };
    expect(pickInvalidArguments(open, { note: 1 }, 0)).toBeUndefined();
    expect(invalidArguments(open, { note: 1 })).toEqual([]);
    const nullable = { type: 'object', properties: { n: { type: ['string', 'null'] } }, required: ['n'] };
    const mutation = pickInvalidArguments(nullable, { n: 'a' }, 0);
    expect(mutation?.kind).toBe('missing-required');
    for (let pick = 0; pick < 8; pick += 1)
      expect(pickInvalidArguments(nullable, { n: 'a' }, pick)?.kind).not.toBe('null-value');
  });

  it('refuses what invalidArguments refuses: a value the schema rejects, an unusable schema', () => {
    expect(pickInvalidArguments(RICH, { city: 'x' }, 0)).toBeUndefined();
    expect(pickInvalidArguments('not a schema', {}, 0)).toBeUndefined();
  });
});
