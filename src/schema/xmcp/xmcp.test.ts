import { describe, expect, it } from 'vitest';
import { annotatedType, checkHeaderAnnotations, findHeaderAnnotations } from './index.js';

/** Each finding's rule, marked `(advisory)` when the schema shows only a risk, not a breach. */
const rulesFor = (schema: Record<string, unknown>) =>
  checkHeaderAnnotations(findHeaderAnnotations(schema).annotations, schema).map((f) =>
    f.advisory ? `${f.rule} (advisory)` : f.rule,
  );
const prop = (inner: Record<string, unknown>) => ({
  type: 'object',
  properties: { region: { type: 'string', ...inner } },
});

describe('x-mcp-header static rules (server/tools#x-mcp-header)', () => {
  it('accepts the spec example and nested properties chains', () => {
    expect(rulesFor(prop({ 'x-mcp-header': 'Region' }))).toEqual([]);
    const nested = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { b: { type: 'integer', 'x-mcp-header': 'B', minimum: 0, maximum: 10 } } },
      },
    };
    const { annotations } = findHeaderAnnotations(nested);
    expect(annotations.map((a) => [a.pointer, a.propertyPath])).toEqual([['/properties/a/properties/b', ['a', 'b']]]);
    expect(rulesFor(nested)).toEqual([]);
  });

  it.each([
    ['', 'xmcp.value.non-empty'],
    ['Region\r\nX-Evil: 1', 'xmcp.value.no-ctl'],
    ['Region\t1', 'xmcp.value.no-ctl'],
    ['My Region', 'xmcp.value.token'],
    ['Région', 'xmcp.value.token'],
    ['Region:Primary', 'xmcp.value.token'],
    [42, 'xmcp.value.token'],
  ])('value %j → %s only', (value, rule) => {
    expect(rulesFor(prop({ 'x-mcp-header': value }))).toEqual([rule]);
  });

  it('names must be unique case-insensitively', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } },
    };
    expect(rulesFor(schema)).toEqual(['xmcp.value.unique-ci']);
  });

  it.each([
    [{ type: 'number' }, ['xmcp.target.primitive']],
    [{ type: 'object' }, ['xmcp.target.primitive']],
    [{ type: 'null' }, ['xmcp.target.primitive']],
    [{ type: 5 }, ['xmcp.target.primitive']],
    [{ type: ['string', 'null'] }, []],
    [{ type: ['string', 'number'] }, ['xmcp.target.primitive']],
    [{ type: ['string', 'integer'] }, ['xmcp.target.primitive (advisory)']],
    [{ enum: ['a', 'b'] }, []],
    [{ enum: ['a', null] }, []],
    [{ enum: [0.5, 1] }, ['xmcp.target.primitive']],
    [{ enum: ['a', 1] }, ['xmcp.target.primitive (advisory)']],
    [{}, ['xmcp.target.primitive (advisory)']],
    [{ type: 'integer', maximum: 2 ** 53 }, ['xmcp.target.int-safe-range (advisory)']],
    [{ type: 'integer', minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 }, []],
  ])('target %j → %j', (schema, rules) => {
    expect(rulesFor({ type: 'object', properties: { p: { ...schema, 'x-mcp-header': 'P' } } })).toEqual(rules);
  });

  it.each([
    [
      'items',
      { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } },
    ],
    ['anyOf', { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }],
    [
      '$defs',
      {
        type: 'object',
        $defs: { a: { type: 'string', 'x-mcp-header': 'A' } },
        properties: { a: { $ref: '#/$defs/a' } },
      },
    ],
    ['additionalProperties', { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } }],
    ['the root', { type: 'object', 'x-mcp-header': 'Root' }],
  ])('an annotation under %s is not statically reachable', (_, schema) => {
    expect(rulesFor(schema)).toContain('xmcp.target.static-reach');
  });

  it.each(['password', 'apiKey', 'api_key', 'accessToken', 'user_email', 'Authorization'])(
    'warns on a sensitive-looking property %s',
    (name) => {
      expect(rulesFor({ type: 'object', properties: { [name]: { type: 'string', 'x-mcp-header': 'X' } } })).toEqual([
        'xmcp.server.no-sensitive',
      ]);
    },
  );

  it.each(['max_tokens', 'author', 'region', 'tenant_id'])('does not warn on %s', (name) => {
    expect(rulesFor({ type: 'object', properties: { [name]: { type: 'string', 'x-mcp-header': 'X' } } })).toEqual([]);
  });

  it('takes a property named x-mcp-header for a property, not for an annotation', () => {
    const schema = {
      type: 'object',
      properties: { 'x-mcp-header': { type: 'number', description: 'a plain parameter' } },
    };
    expect(findHeaderAnnotations(schema).annotations).toEqual([]);
    expect(rulesFor(schema)).toEqual([]);
    const annotated = { type: 'object', properties: { 'x-mcp-header': { type: 'string', 'x-mcp-header': 'Name' } } };
    expect(findHeaderAnnotations(annotated).annotations.map((a) => [a.pointer, a.propertyPath])).toEqual([
      ['/properties/x-mcp-header', ['x-mcp-header']],
    ]);
    expect(rulesFor(annotated)).toEqual([]);
  });

  it.each(['default', 'enum', 'const', 'examples'])('inspects a property named %s', (name) => {
    const schema = { type: 'object', properties: { [name]: { type: 'number', 'x-mcp-header': 'Amount' } } };
    expect(findHeaderAnnotations(schema).annotations.map((a) => a.pointer)).toEqual([`/properties/${name}`]);
    expect(rulesFor(schema)).toEqual(['xmcp.target.primitive']);
  });

  it('never enters data keywords (const, enum, default, examples) as schemas', () => {
    const data = { 'x-mcp-header': 'Bad Name' };
    const schema = {
      type: 'object',
      default: data,
      examples: [data],
      const: data,
      enum: [data],
      'x-vendor': data,
      properties: {},
    };
    expect(findHeaderAnnotations(schema).annotations).toEqual([]);
  });

  it('walks a hostile, very deep schema without blowing the stack', () => {
    let deep: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { n: deep } };
    const { truncated } = findHeaderAnnotations(deep);
    expect(truncated).toBe(true);
  });
});

/** An inputSchema with one annotated parameter `p` (and what else the root holds: $defs, definitions, $schema). */
const withParam = (p: Record<string, unknown>, root: Record<string, unknown> = {}) => ({
  type: 'object',
  ...root,
  properties: { p: { ...p, 'x-mcp-header': 'P' } },
});
const typeOf = (p: Record<string, unknown>, root?: Record<string, unknown>) => {
  const schema = withParam(p, root);
  return annotatedType(findHeaderAnnotations(schema).annotations[0]!.schema, schema);
};
const SAFE = Number.MAX_SAFE_INTEGER;

describe('the annotated type, read through same-document structure', () => {
  // What generators write: pydantic 2 (Optional[...], an Enum class as $ref into $defs), zod 4 (.nullable()),
  // zod-to-json-schema (nullable primitives as a type array), and draft-07 definitions.
  const REGION = { $defs: { Region: { enum: ['us-west1', 'europe-west1'], title: 'Region', type: 'string' } } };
  it.each([
    [
      'pydantic Optional[str]',
      { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Region' },
      {},
      'string',
    ],
    [
      'pydantic Optional[int]',
      { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null, title: 'Shard' },
      {},
      'integer',
    ],
    ['pydantic Enum ($ref into $defs)', { $ref: '#/$defs/Region' }, REGION, 'string'],
    [
      'pydantic Optional[Enum]',
      { anyOf: [{ $ref: '#/$defs/Region' }, { type: 'null' }], default: null },
      REGION,
      'string',
    ],
    [
      'zod 4 .int().nullable()',
      { anyOf: [{ type: 'integer', minimum: -SAFE, maximum: SAFE }, { type: 'null' }] },
      {},
      'integer',
    ],
    [
      'zod-to-json-schema .nullable()',
      { type: ['string', 'null'] },
      { $schema: 'http://json-schema.org/draft-07/schema#' },
      'string',
    ],
    ['a nullable integer type array', { type: ['integer', 'null'] }, {}, 'integer'],
    [
      'a draft-07 $ref into definitions (its siblings ignored)',
      { $ref: '#/definitions/Flag', type: 'object' },
      { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { Flag: { type: 'boolean' } } },
      'boolean',
    ],
    [
      'a chain of $refs',
      { $ref: '#/$defs/A' },
      { $defs: { A: { $ref: '#/$defs/B' }, B: { type: 'integer', minimum: 0, maximum: 9 } } },
      'integer',
    ],
    ['allOf of a $ref and a constraint', { allOf: [{ $ref: '#/$defs/Region' }, { maxLength: 20 }] }, REGION, 'string'],
    ['allOf narrowing number to integer', { type: 'number', allOf: [{ type: 'integer' }] }, {}, 'integer'],
    ['a one-branch oneOf', { oneOf: [{ type: 'boolean' }] }, {}, 'boolean'],
    ['a one-branch anyOf', { anyOf: [{ const: 'on' }] }, {}, 'string'],
  ])('%s → %s', (_, p, root, type) => {
    expect(typeOf(p, root)).toMatchObject({ type });
    expect(rulesFor(withParam(p, root)).filter((r) => r.startsWith('xmcp.target.primitive'))).toEqual([]);
  });

  it.each([
    [
      'anyOf of string and integer (pydantic Union[str, int])',
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      {},
      /accepts "string" or "integer" \(through anyOf\), not one primitive type/,
    ],
    [
      'a $ref to a missing target',
      { $ref: '#/$defs/Missing' },
      { $defs: {} },
      /could not be decided \(through \$ref\): cannot follow \$ref #\/\$defs\/Missing/,
    ],
    ['a $ref to another document', { $ref: 'https://example.com/schemas/region.json' }, {}, /only same-document/],
    [
      'a $ref next to a type that admits an object',
      { type: ['string', 'object'], allOf: [{ $ref: 'https://example.com/s.json' }] },
      {},
      /unless what was not followed narrows it/,
    ],
    [
      'an anyOf branch that accepts anything',
      { anyOf: [{ type: 'string' }, {}] },
      {},
      /accepts values of any type \(through anyOf\)/,
    ],
    [
      'a self-referencing $defs',
      { $ref: '#/$defs/A' },
      { $defs: { A: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] } } },
      /nest deeper than/,
    ],
    ['no type at all', { description: 'the region' }, {}, /declares no type/],
  ])('%s is undecided: a warning, never a failure', (_, p, root, why) => {
    const decision = typeOf(p, root);
    expect(decision).toMatchObject({ undecided: true });
    expect(decision.problem).toMatch(why);
    const findings = checkHeaderAnnotations(findHeaderAnnotations(withParam(p, root)).annotations, withParam(p, root));
    expect(findings.map((f) => [f.rule, f.advisory])).toEqual([['xmcp.target.primitive', true]]);
    expect(findings[0]!.message).toMatch(
      /clients that read only the annotated schema's own type keyword reject the tool/,
    );
  });

  it.each([
    ['number', { type: 'number' }, {}, /type is "number", not integer, string or boolean/],
    ['object', { type: 'object' }, {}, /type is "object"/],
    [
      'a $ref to a number',
      { $ref: '#/$defs/Ratio' },
      { $defs: { Ratio: { type: 'number' } } },
      /type \(through \$ref\) is "number"/,
    ],
    [
      'anyOf of string and object',
      { anyOf: [{ type: 'string' }, { type: 'object' }] },
      {},
      /accepts "string" or "object" \(through anyOf\)/,
    ],
    ['a nullable number', { anyOf: [{ type: 'number' }, { type: 'null' }] }, {}, /type \(through anyOf\) is "number"/],
    ['only null', { type: 'null' }, {}, /accepts only null/],
  ])('%s is a breach', (_, p, root, why) => {
    const decision = typeOf(p, root);
    expect(decision).toMatchObject({ undecided: false });
    expect(decision.problem).toMatch(why);
    expect(rulesFor(withParam(p, root))).toEqual(['xmcp.target.primitive']);
  });

  it('stays within the work budget on a schema that branches at every level', () => {
    const $defs: Record<string, unknown> = { L0: { type: 'string' } };
    for (let i = 1; i <= 40; i++)
      $defs[`L${i}`] = { anyOf: [{ $ref: `#/$defs/L${i - 1}` }, { $ref: `#/$defs/L${i - 1}` }] };
    const started = performance.now();
    expect(typeOf({ $ref: '#/$defs/L40' }, { $defs })).toMatchObject({ undecided: true });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('the integer safe range (xmcp.target.int-safe-range)', () => {
  const range = (p: Record<string, unknown>, root?: Record<string, unknown>) => {
    const schema = withParam(p, root);
    return checkHeaderAnnotations(findHeaderAnnotations(schema).annotations, schema)
      .filter((f) => f.rule === 'xmcp.target.int-safe-range')
      .map((f) => (f.advisory ? `advisory: ${f.message}` : `breach: ${f.message}`));
  };

  it.each([
    [
      'an unbounded integer',
      { type: 'integer' },
      /^advisory: no minimum, no maximum: the schema admits integers outside/,
    ],
    [
      'maximum 2^60',
      { type: 'integer', minimum: 0, maximum: 2 ** 60 },
      /^advisory: maximum 1152921504606847000: the schema admits/,
    ],
    ['minimum -2^60', { type: 'integer', minimum: -(2 ** 60), maximum: 0 }, /^advisory: minimum -1152921504606847000:/],
    ['pydantic Optional[int]', { anyOf: [{ type: 'integer' }, { type: 'null' }] }, /^advisory: no minimum, no maximum/],
  ])('%s only admits unsafe values: advisory', (_, p, message) => {
    expect(range(p)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    [
      'minimum 2^60',
      { type: 'integer', minimum: 2 ** 60 },
      /^breach: minimum 1152921504606847000: every integer the parameter admits lies above/,
    ],
    [
      'maximum -2^60',
      { type: 'integer', maximum: -(2 ** 60) },
      /^breach: maximum -1152921504606847000: every integer the parameter admits lies below/,
    ],
    [
      'exclusiveMinimum 2^53−1',
      { type: 'integer', exclusiveMinimum: SAFE },
      /^breach: exclusiveMinimum 9007199254740991:/,
    ],
    [
      'draft-04 minimum 2^53−1 with exclusiveMinimum true',
      { type: 'integer', minimum: SAFE, exclusiveMinimum: true },
      /^breach: exclusive minimum 9007199254740991:/,
    ],
    [
      'an unsafe const',
      { type: 'integer', const: 2 ** 60 },
      /^breach: the listed value 1152921504606847000 lies outside/,
    ],
    [
      'an enum with unsafe values',
      { type: 'integer', enum: [1, 2 ** 60, -(2 ** 60)] },
      /^breach: the listed values 1152921504606847000, -1152921504606847000 lie outside/,
    ],
    ['an unsafe enum through $ref', { $ref: '#/$defs/Shard' }, /^breach: the listed value 1152921504606847000/],
  ])('%s requires or names unsafe values: a breach', (_, p, message) => {
    expect(range(p, { $defs: { Shard: { type: 'integer', enum: [2 ** 60] } } })).toEqual([
      expect.stringMatching(message),
    ]);
  });

  it.each([
    ['safe bounds', { type: 'integer', minimum: -SAFE, maximum: SAFE }],
    ['zod 4 .int().nullable()', { anyOf: [{ type: 'integer', minimum: -SAFE, maximum: SAFE }, { type: 'null' }] }],
    ['a safe enum without bounds', { type: 'integer', enum: [1, 2, 3] }],
    ['pydantic Optional[IntEnum]', { anyOf: [{ $ref: '#/$defs/Level' }, { type: 'null' }] }],
    ['an unsafe enum value its own maximum excludes', { type: 'integer', enum: [1, 2 ** 60], maximum: 10 }],
    ['bounds tightened by allOf', { type: 'integer', allOf: [{ minimum: 0 }, { maximum: 100 }] }],
    ['a string (bounds do not apply)', { type: 'string', maximum: 2 ** 60 }],
  ])('%s: nothing to report', (_, p) => {
    expect(range(p, { $defs: { Level: { type: 'integer', enum: [1, 2] } } })).toEqual([]);
  });
});
