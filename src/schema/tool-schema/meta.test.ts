import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metaValidationRuns, validateSchemaDocument } from './meta.js';
import { metaSchemaAjv } from './meta-validators.js';

const EXAMPLES = resolve(import.meta.dirname, '../../../../shared/spec/2026-07-28/examples/Tool');
const haveExamples = existsSync(EXAMPLES);
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function exampleSchemas(): [string, unknown][] {
  const schemas: [string, unknown][] = [];
  for (const file of readdirSync(EXAMPLES).filter((name) => name.endsWith('.json'))) {
    const tool = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Record<string, unknown>;
    for (const key of ['inputSchema', 'outputSchema'])
      if (tool[key] !== undefined) schemas.push([`${file} ${key}`, tool[key]]);
  }
  return schemas;
}

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < depth; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('validateSchemaDocument: the spec examples', () => {
  it.skipIf(!haveExamples)(
    `accepts every inputSchema and outputSchema of ${EXAMPLES}${haveExamples ? '' : ' (skipped: folder absent)'}`,
    () => {
      const schemas = exampleSchemas();
      expect(schemas.length).toBeGreaterThanOrEqual(8);
      for (const [name, schema] of schemas) {
        const verdict = validateSchemaDocument(schema);
        expect(verdict.checked, name).toBe(true);
        expect(verdict.issues, name).toEqual([]);
      }
    },
  );

  it.skipIf(!haveExamples)('checks the draft-07 example under draft-07', () => {
    const tool = JSON.parse(readFileSync(join(EXAMPLES, 'with-explicit-draft-07-input-schema.json'), 'utf8')) as {
      inputSchema: unknown;
    };
    const verdict = validateSchemaDocument(tool.inputSchema);
    expect(verdict.dialect).toMatchObject({ dialect: 'draft-07', supported: true });
    expect(verdict).toMatchObject({ checked: true, issues: [] });
  });
});

describe('validateSchemaDocument: invalid schemas', () => {
  it.each([
    [{ type: 'obj' }, '/type'],
    [{ type: 'object', properties: [] }, '/properties'],
    [{ required: 'x' }, '/required'],
    [{ minLength: -1 }, '/minLength'],
    [{ pattern: 5 }, '/pattern'],
    [{ properties: { a: { pattern: ['x'] } } }, '/properties/a/pattern'],
    [{ $defs: 5 }, '/$defs'],
  ])('%j is reported at %s', (schema, instancePath) => {
    const verdict = validateSchemaDocument(schema);
    expect(verdict.checked).toBe(true);
    expect(verdict.issues.map((issue) => issue.instancePath)).toContain(instancePath);
    for (const issue of verdict.issues)
      expect(Object.keys(issue).sort()).toEqual(['instancePath', 'keyword', 'message', 'params', 'schemaPath']);
  });

  it.each([
    ['https://json-schema.org/draft/2019-09/schema', { type: 'obj' }],
    [DRAFT_07, { minLength: -1 }],
    ['http://json-schema.org/draft-06/schema#', { pattern: 5 }],
  ])('validates under the declared dialect %s', ($schema, invalid) => {
    const verdict = validateSchemaDocument({ $schema, ...invalid });
    expect(verdict.checked).toBe(true);
    expect(verdict.issues.length).toBeGreaterThan(0);
  });
});

describe("validateSchemaDocument: the official meta-schemas, not ajv's stricter copies", () => {
  const DRAFT_06 = 'http://json-schema.org/draft-06/schema#';
  const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
  const property = (schema: Record<string, unknown>) => ({ type: 'object', properties: { c: schema } });

  it.each([DRAFT_07, DRAFT_06, 'https://json-schema.org/draft/2019-09/schema', undefined])(
    'an empty enum and repeated enum elements are valid under %s (its text only says SHOULD)',
    ($schema) => {
      for (const c of [{ type: 'string', enum: [] }, { enum: ['a', 'a'] }]) {
        const schema = { ...($schema ? { $schema } : {}), ...property(c) };
        expect(validateSchemaDocument(schema), JSON.stringify(schema)).toMatchObject({ checked: true, issues: [] });
      }
    },
  );

  it('draft-04 schemas are validated against the draft-04 meta-schema, where enum MUST be non-empty and unique', () => {
    expect(validateSchemaDocument({ $schema: DRAFT_04, ...property({ enum: ['a'] }) })).toMatchObject({
      dialect: { dialect: 'draft-04' },
      checked: true,
      issues: [],
    });
    for (const c of [{ enum: [] }, { enum: ['a', 'a'] }]) {
      const verdict = validateSchemaDocument({ $schema: DRAFT_04, ...property(c) });
      expect(verdict.checked).toBe(true);
      expect(verdict.issues.map((issue) => issue.instancePath)).toContain('/properties/c/enum');
    }
  });

  it('draft-04 keywords keep their draft-04 meaning: boolean exclusive bounds, multipleOf above 0, format a string, id any string', () => {
    expect(
      validateSchemaDocument({
        $schema: DRAFT_04,
        id: 'tool input',
        ...property({ type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.5, format: 'float' }),
      }).issues,
    ).toEqual([]);
    for (const [c, at] of [
      [{ minimum: 0, exclusiveMinimum: 0 }, '/properties/c/exclusiveMinimum'],
      [{ exclusiveMaximum: true }, '/properties/c'],
      [{ multipleOf: 0 }, '/properties/c/multipleOf'],
      [{ format: 5 }, '/properties/c/format'],
      [{ required: [] }, '/properties/c/required'],
    ] as const) {
      expect(
        validateSchemaDocument({ $schema: DRAFT_04, ...property(c) }).issues.map((issue) => issue.instancePath),
        JSON.stringify(c),
      ).toContain(at);
    }
  });

  it("the corrections to ajv's documents are exactly the documented ones", () => {
    expect(metaSchemaAjv('draft-07').getSchema('http://json-schema.org/draft-07/schema')!.schema).toMatchObject({
      properties: { enum: { type: 'array', items: true } },
    });
    const draft06 = metaSchemaAjv('draft-07').getSchema('http://json-schema.org/draft-06/schema')!.schema as {
      properties: Record<string, unknown>;
    };
    expect(draft06.properties.enum).toEqual({ type: 'array' });
    expect(draft06.properties.patternProperties).toMatchObject({ propertyNames: { format: 'regex' } });
    const draft04 = metaSchemaAjv('draft-07').getSchema('http://json-schema.org/draft-04/schema')!.schema as {
      properties: Record<string, unknown>;
    };
    expect([draft04.properties.id, draft04.properties.$schema, draft04.properties.format]).toEqual([
      { type: 'string' },
      { type: 'string' },
      { type: 'string' },
    ]);
    expect(draft04.properties.enum).toEqual({ type: 'array', minItems: 1, uniqueItems: true });
  });
});

describe('validateSchemaDocument: format is an annotation', () => {
  it.each([
    ['a Python-style \\Z anchor', { type: 'object', properties: { id: { type: 'string', pattern: '^\\d+\\Z' } } }],
    ['a Python named group', { type: 'object', properties: { id: { type: 'string', pattern: '^(?P<id>[a-z]+)$' } } }],
    ['a pattern no engine compiles', { pattern: '(' }],
    ['a patternProperties key', { patternProperties: { '^(?P<k>x)$': {} } }],
    ['draft-07', { $schema: DRAFT_07, pattern: '^a\\Z' }],
  ])('%s is no meta-schema violation (jsonschema.pattern.ecma judges patterns)', (_, schema) => {
    expect(validateSchemaDocument(schema)).toMatchObject({ checked: true, issues: [] });
  });
});

describe('validateSchemaDocument: dialect semantics', () => {
  it('accepts x-mcp-header and other vendor keywords', () => {
    const schema = {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      'x-vendor': { anything: [1, 2] },
    };
    expect(validateSchemaDocument(schema)).toMatchObject({ checked: true, issues: [] });
    expect(validateSchemaDocument({ $schema: DRAFT_07, ...schema })).toMatchObject({ checked: true, issues: [] });
  });

  it('treats 2020-12-only prefixItems under draft-07 as an unknown keyword, not an error', () => {
    expect(validateSchemaDocument({ $schema: DRAFT_07, prefixItems: 5 })).toMatchObject({ checked: true, issues: [] });
  });

  it('applies draft-07 rules to items/additionalItems', () => {
    const verdict = validateSchemaDocument({ $schema: DRAFT_07, items: [{}], additionalItems: 5 });
    expect(verdict.checked).toBe(true);
    expect(verdict.issues.map((issue) => issue.instancePath)).toContain('/additionalItems');
  });

  it('applies 2020-12 rules where they differ from draft-07', () => {
    expect(validateSchemaDocument({ prefixItems: 5 }).issues.map((issue) => issue.instancePath)).toContain(
      '/prefixItems',
    );
    expect(validateSchemaDocument({ items: [{}] }).issues.map((issue) => issue.instancePath)).toContain('/items');
    expect(validateSchemaDocument({ $schema: DRAFT_07, items: [{}] }).issues).toEqual([]);
  });

  it('never validates an unknown dialect as 2020-12', () => {
    const unknown = validateSchemaDocument({ $schema: 'https://example.com/my-dialect', type: 'obj' });
    expect(unknown).toMatchObject({
      checked: false,
      issues: [],
      skippedBecause: 'unknown dialect https://example.com/my-dialect',
    });
    expect(validateSchemaDocument({ $schema: 7 })).toMatchObject({
      checked: false,
      skippedBecause: '$schema must be a string URI, got number',
    });
  });

  it('reports a non-object, non-boolean schema', () => {
    expect(validateSchemaDocument(true)).toMatchObject({ checked: true, issues: [] });
    expect(validateSchemaDocument(42).issues.length).toBeGreaterThan(0);
    expect(validateSchemaDocument(null).issues.length).toBeGreaterThan(0);
  });
});

describe('validateSchemaDocument: hostile input', () => {
  it('skips a 10,000-deep schema at once instead of crashing', () => {
    const schema = nested(10_000);
    const started = performance.now();
    const verdict = validateSchemaDocument(schema);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(verdict).toMatchObject({
      checked: false,
      issues: [],
      skippedBecause: 'schema nesting is deeper than 64 levels',
    });
  });

  it('skips 100,000 sibling subschemas', () => {
    const verdict = validateSchemaDocument({ anyOf: Array.from({ length: 100_000 }, () => ({ type: 'string' })) });
    expect(verdict).toMatchObject({ checked: false, skippedBecause: 'schema has more than 10000 subschemas' });
  });

  it('validates a schema just inside the bounds', () => {
    expect(validateSchemaDocument(nested(64))).toMatchObject({ checked: true, issues: [] });
    expect(validateSchemaDocument({ anyOf: Array.from({ length: 9_999 }, () => ({ type: 'string' })) })).toMatchObject({
      checked: true,
      issues: [],
    });
  });

  it('handles a huge pattern and external references without fetching or failing', () => {
    const schema = {
      pattern: `^(a+)+${'b'.repeat(200_000)}$`,
      properties: { a: { $ref: 'file:///etc/passwd' }, b: { $ref: 'http://127.0.0.1:9/x.json' } },
    };
    expect(validateSchemaDocument(schema)).toMatchObject({ checked: true, issues: [] });
  });

  it('turns a stack overflow under caller-raised limits into an unchecked verdict', () => {
    const verdict = validateSchemaDocument(nested(200_000), {
      maxDepth: 1_000_000,
      maxNodes: 1_000_000,
      maxBytes: 1_000_000_000,
    });
    expect(verdict.checked).toBe(false);
    expect(verdict.skippedBecause).toMatch(/out of stack/);
  });

  it('does not throw on values JSON cannot carry', () => {
    expect(() => validateSchemaDocument({ minimum: 10n })).not.toThrow();
    expect(validateSchemaDocument({ minimum: 10n }).checked).toBe(false);
  });

  it('does not throw on a cyclic object', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['not'] = cyclic;
    expect(validateSchemaDocument(cyclic)).toMatchObject({
      checked: false,
      skippedBecause: 'schema nesting is deeper than 64 levels',
    });
  });
});

describe('validateSchemaDocument: cache', () => {
  it('validates the same schema text only once', () => {
    const schema = { type: 'object', description: `cache probe ${Math.random()}`, properties: { n: { minimum: -1 } } };
    const before = metaValidationRuns();
    const first = validateSchemaDocument(schema);
    const second = validateSchemaDocument(JSON.parse(JSON.stringify(schema)));
    expect(metaValidationRuns()).toBe(before + 1);
    expect(second).toEqual(first);
    validateSchemaDocument({ ...schema, minLength: -1 });
    expect(metaValidationRuns()).toBe(before + 2);
  });

  it('hands out copies, so a caller cannot poison the cache', () => {
    const schema = { type: 'obj', description: `cache probe ${Math.random()}` };
    validateSchemaDocument(schema).issues.length = 0;
    expect(validateSchemaDocument(schema).issues.length).toBeGreaterThan(0);
  });
});
