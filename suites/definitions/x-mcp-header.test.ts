import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import { X_MCP_HEADER_CHECKS } from './x-mcp-header.js';

const check = (id: string) => X_MCP_HEADER_CHECKS.find((c) => c.id === id)!;

/** Just enough context for a check that reads the tool list: one tool per inputSchema, named t0, t1, … */
function listing(...schemas: Record<string, unknown>[]): CheckContext {
  const tools = schemas.map((inputSchema, i) => ({ name: `t${i}`, inputSchema }));
  const page = { result: { tools }, exchange: { seq: 1 } };
  return {
    wire: '2026-07-28',
    tools: async () => ({ pages: [page], tools, stop: { kind: 'complete' } }),
  } as unknown as CheckContext;
}

async function verdicts(id: string, ...schemas: Record<string, unknown>[]) {
  const outcomes = await check(id).run(listing(...schemas));
  return outcomes.map((o) => toResult(check(id), o, 0, '2026-07-28'));
}

/** pydantic 2 `model_json_schema()` of a model whose fields carry `json_schema_extra={"x-mcp-header": …}`. */
const PYDANTIC = {
  $defs: { Region: { enum: ['us-west1', 'europe-west1'], title: 'Region', type: 'string' } },
  properties: {
    region: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Region', 'x-mcp-header': 'Region' },
    zone: { $ref: '#/$defs/Region', 'x-mcp-header': 'Zone' },
    maybe_zone: { anyOf: [{ $ref: '#/$defs/Region' }, { type: 'null' }], default: null, 'x-mcp-header': 'MaybeZone' },
    bounded: { default: 1, maximum: 10, minimum: 0, title: 'Bounded', type: 'integer', 'x-mcp-header': 'Bounded' },
  },
  required: ['zone'],
  title: 'Args',
  type: 'object',
};

/** zod 4 `z.toJSONSchema()` of `.nullable()` fields with `.meta({ "x-mcp-header": … })`. */
const ZOD = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    count: {
      anyOf: [{ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, { type: 'null' }],
      'x-mcp-header': 'Count',
    },
    zone: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }], 'x-mcp-header': 'Zone' },
  },
  required: ['count', 'zone'],
  additionalProperties: false,
};

/**
 * What SDK v2's McpServer lists (2.4.0) for `z.string().nullable()` and `z.number().int().min(0).max(63).nullable()`
 * with that meta.
 */
const SDK_V2 = {
  type: 'object',
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  properties: {
    region: { 'x-mcp-header': 'Region', type: ['string', 'null'] },
    shard: { anyOf: [{ type: 'integer', minimum: 0, maximum: 63 }, { type: 'null' }], 'x-mcp-header': 'Shard' },
  },
  required: ['region', 'shard'],
};

/** zod-to-json-schema (SDK v1) of a nullable string, and a nullable integer type array. */
const ZOD_V3 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    region: { type: ['string', 'null'], 'x-mcp-header': 'Region' },
    count: { type: ['integer', 'null'], minimum: 0, maximum: 1000, 'x-mcp-header': 'Count' },
  },
  required: ['region', 'count'],
  additionalProperties: false,
};

const param = (schema: Record<string, unknown>) => ({
  type: 'object',
  properties: { p: { ...schema, 'x-mcp-header': 'P' } },
});

describe('xmcp.target.primitive', () => {
  it('passes the schemas pydantic and zod generate for nullable, enum and $ref parameters', async () => {
    expect((await verdicts('xmcp.target.primitive', PYDANTIC, ZOD, SDK_V2, ZOD_V3)).map((r) => r.status)).toEqual([
      'pass',
    ]);
  });

  it.each([
    ['anyOf of string and integer', param({ anyOf: [{ type: 'string' }, { type: 'integer' }] })],
    ['a $ref to a missing target', { ...param({ $ref: '#/$defs/Missing' }), $defs: {} }],
    ['a $ref to another document (never fetched)', param({ $ref: 'https://example.com/schemas/region.json' })],
  ])('warns, labelled descriptive, when the type stays undecided: %s', async (_, schema) => {
    const [result] = await verdicts('xmcp.target.primitive', schema);
    expect(result).toMatchObject({
      status: 'warn',
      keywordText: 'descriptive',
      tool: 't0',
      quote: 'The `x-mcp-header` property is placed directly within the JSON Schema of the property to be mirrored.',
    });
    expect(result!.message).toMatch(/clients that read only the annotated schema's own type keyword reject the tool/);
    expect(result!.expected).toMatch(/in the annotated schema itself/);
  });

  it.each([
    ['number', param({ type: 'number' })],
    ['object', param({ type: 'object' })],
    ['a $ref to a number', { ...param({ $ref: '#/$defs/Ratio' }), $defs: { Ratio: { type: 'number' } } }],
  ])('fails on the MUST when the parameter is a %s', async (_, schema) => {
    const [result] = await verdicts('xmcp.target.primitive', schema);
    expect(result).toMatchObject({ status: 'fail', keywordText: 'MUST', tool: 't0' });
    expect(result!.quote).toMatch(/MUST only be applied to parameters with primitive types/);
  });

  it('fails a tool with both a breach and an undecided parameter, naming both', async () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'number', 'x-mcp-header': 'A' },
        b: { anyOf: [{ type: 'string' }, { type: 'integer' }], 'x-mcp-header': 'B' },
      },
    };
    const [result] = await verdicts('xmcp.target.primitive', schema);
    expect(result).toMatchObject({ status: 'fail', keywordText: 'MUST' });
    expect(result!.message).toMatch(/^\/properties\/a: .*"number".*; also \(advisory\) \/properties\/b: /);
  });
});

describe('xmcp.target.int-safe-range', () => {
  it('treats an unbounded integer and maximum 2^60 alike: a warning resting on the numeric comparison SHOULD', async () => {
    const results = await verdicts(
      'xmcp.target.int-safe-range',
      param({ type: 'integer' }),
      param({ type: 'integer', minimum: 0, maximum: 2 ** 60 }),
    );
    expect(results.map((r) => [r.tool, r.status, r.keywordText, r.specRef])).toEqual([
      ['t0', 'warn', 'SHOULD', 'basic/transports/streamable-http#server-validation'],
      ['t1', 'warn', 'SHOULD', 'basic/transports/streamable-http#server-validation'],
    ]);
    expect(results.map((r) => r.message)).toEqual([
      expect.stringMatching(/^\/properties\/p: no minimum, no maximum: /),
      expect.stringMatching(/^\/properties\/p: maximum 1152921504606847000: /),
    ]);
  });

  it.each([
    ['minimum 2^60', param({ type: 'integer', minimum: 2 ** 60 })],
    ['an unsafe enum value', param({ type: 'integer', enum: [1, 2 ** 60] })],
  ])('fails on the MUST when the schema requires or names unsafe values: %s', async (_, schema) => {
    const [result] = await verdicts('xmcp.target.int-safe-range', schema);
    expect(result).toMatchObject({ status: 'fail', keywordText: 'MUST', tool: 't0' });
    expect(result!.quote).toMatch(/Integer values MUST be within the safe range/);
  });

  it('passes bounded integers, including zod 4 .int() and an integer enum behind a $ref', async () => {
    const enumRef = {
      ...param({ anyOf: [{ $ref: '#/$defs/Level' }, { type: 'null' }] }),
      $defs: { Level: { type: 'integer', enum: [1, 2, 3] } },
    };
    expect(
      (await verdicts('xmcp.target.int-safe-range', ZOD, SDK_V2, ZOD_V3, PYDANTIC, enumRef)).map((r) => r.status),
    ).toEqual(['pass']);
  });
});
