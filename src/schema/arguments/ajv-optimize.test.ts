import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { fake, fakerInput } from '../../property/jsf.js';
import { TOOL_DEFINITIONS } from '../../../reference/server/tools.js';
import { ARGUMENT_AJV_OPTIONS, compileWithAjv, type FormatMode } from './ajv-family.js';
import { invalidArguments } from './mutate.js';

/** Tool schemas compile without ajv's clean-up pass over the generated code; the verdicts must not change. */
const COMPOSED: Record<string, unknown>[] = [
  {
    type: 'object',
    properties: {
      kind: { enum: ['a', 'b'] },
      n: { type: 'integer', minimum: 1, maximum: 9 },
      s: { type: 'string', pattern: '^x[0-9]+$' },
    },
    required: ['kind'],
    allOf: [{ if: { properties: { kind: { const: 'a' } } }, then: { required: ['n'] }, else: { required: ['s'] } }],
    additionalProperties: false,
  },
  {
    type: 'object',
    $defs: { tag: { type: 'string', minLength: 2, maxLength: 5 } },
    properties: {
      tags: { type: 'array', items: { $ref: '#/$defs/tag' }, minItems: 1, uniqueItems: true },
      when: { type: 'string', format: 'date-time' },
    },
    patternProperties: { '^x-': { type: 'number', exclusiveMinimum: 0 } },
    dependentRequired: { when: ['tags'] },
    unevaluatedProperties: false,
  },
  {
    type: 'object',
    properties: {
      v: {
        anyOf: [
          { type: 'string', format: 'email' },
          { type: 'number', multipleOf: 0.5 },
        ],
      },
      o: { type: 'object', minProperties: 1, propertyNames: { maxLength: 3 } },
    },
    oneOf: [{ required: ['v'] }, { required: ['o'] }],
  },
];

function optimizedAjv(formats: FormatMode): Ajv2020 {
  const ajv = new Ajv2020({
    ...ARGUMENT_AJV_OPTIONS,
    validateFormats: formats === 'assertion',
    code: { ...ARGUMENT_AJV_OPTIONS.code, optimize: 1 },
  });
  if (formats === 'assertion') addFormats.default(ajv);
  return ajv;
}

const verdict = (
  validate: { (value: unknown): boolean; errors?: { instancePath: string; keyword: string }[] | null },
  value: unknown,
) => ({
  valid: validate(value),
  errors: (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`).sort(),
});

describe('tool schemas compiled without the optimisation pass', () => {
  it('judge generated and mutated arguments exactly as the optimised code does', () => {
    expect(ARGUMENT_AJV_OPTIONS.code?.optimize).toBe(false);
    const schemas = [...TOOL_DEFINITIONS.map((t) => t.inputSchema as Record<string, unknown>), ...COMPOSED];
    let compared = 0;
    for (const [schema, formats] of schemas.flatMap((schema) =>
      (['annotation', 'assertion'] as const).map((mode) => [schema, mode] as const),
    )) {
      const plain = compileWithAjv(schema, '2020-12', formats);
      const optimised = optimizedAjv(formats).compile({
        ...schema,
        $schema: 'https://json-schema.org/draft/2020-12/schema',
      });
      const values: unknown[] = [{}, null, [], { unexpected: 1 }, { when: 'noon', v: 'not an email' }];
      for (let seed = 1; seed <= 25; seed += 1) {
        let value: unknown;
        try {
          value = fake(fakerInput(schema), seed);
        } catch {
          continue;
        }
        values.push(value);
        if (value !== null && typeof value === 'object' && !Array.isArray(value))
          values.push(...invalidArguments(schema, value as Record<string, unknown>).map((m) => m.value));
      }
      for (const value of values) {
        expect(verdict(plain, value), JSON.stringify(value)).toEqual(verdict(optimised, value));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
