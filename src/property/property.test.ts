import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary } from '../../test/helpers/canary.js';
import { compileArgumentSchema } from '../schema/arguments/index.js';
import { invalidCases, ValidArguments } from './arbitraries.js';
import { prepareSource, type ArgumentSource } from './argument-source.js';
import { fake, fakerInput, tupleItemsAs2020 } from './jsf.js';
import { formatReplayToken, parseReplayToken, shellQuote } from './replay.js';
import { search, SHRINK_BUDGET, SLOW_SEARCH } from './search.js';
import { derivedSeed } from './seeds.js';

function sourceOf(schema: Record<string, unknown>): ArgumentSource {
  const prepared = prepareSource(schema);
  if (!prepared.ok) throw new Error(prepared.reason);
  return prepared.source;
}

const LABEL = {
  type: 'object',
  properties: {
    style: { type: 'string', enum: ['plain', 'bold', 'italic', 'code'] },
    text: { type: 'string' },
    note: { type: 'string' },
    size: { type: 'integer', minimum: 3, maximum: 90 },
  },
  required: ['style', 'text'],
  additionalProperties: false,
};

describe('schema-valid arguments', () => {
  it('are all accepted by the argument validator, for 2020-12 and draft-07 schemas', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        id: { $ref: '#/definitions/id' },
        pair: { type: 'array', items: [{ type: 'integer' }, { type: 'string' }], additionalItems: false },
        tag: { type: 'string', pattern: '^[a-z]{2,5}$' },
      },
      required: ['id', 'pair', 'tag'],
      definitions: { id: { type: 'string', format: 'uuid' } },
    };
    for (const schema of [LABEL, draft07]) {
      const validate = compileArgumentSchema(schema);
      if (!validate.ok) throw new Error(validate.reason);
      const values = fc.sample(new ValidArguments(sourceOf(schema)), { seed: 7, numRuns: 200 });
      expect(values.every((value) => validate.validator.validate(value).valid)).toBe(true);
      expect(new Set(values.map((value) => JSON.stringify(value))).size).toBeGreaterThan(50);
    }
  });

  it('rewrites draft-07 tuple items for the generator only', () => {
    expect(tupleItemsAs2020({ items: [{ type: 'integer' }], additionalItems: false, enum: [{ items: [1] }] })).toEqual({
      prefixItems: [{ type: 'integer' }],
      items: false,
      enum: [{ items: [1] }],
    });
  });

  it('are reproduced by the fast-check seed alone', () => {
    const arbitrary = new ValidArguments(sourceOf(LABEL));
    expect(fc.sample(arbitrary, { seed: 42, numRuns: 30 })).toEqual(fc.sample(arbitrary, { seed: 42, numRuns: 30 }));
    expect(fc.sample(arbitrary, { seed: 42, numRuns: 30 })).not.toEqual(
      fc.sample(arbitrary, { seed: 43, numRuns: 30 }),
    );
  });

  it('shrink to a minimal valid object: optional properties dropped, strings emptied, enum toward the first value', () => {
    const run = fc.check(
      fc.property(new ValidArguments(sourceOf(LABEL)), (args) => args.style === 'plain' || args.style === 'bold'),
      { seed: 3 },
    );
    expect(run.failed).toBe(true);
    expect(run.counterexample![0]).toEqual({ style: 'italic', text: '' });
  });

  it('shrink numbers toward the lower bound and keep every candidate valid', () => {
    const schema = {
      type: 'object',
      properties: {
        size: { type: 'integer', minimum: 3, maximum: 90 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['size', 'tags'],
    };
    const validate = compileArgumentSchema(schema);
    if (!validate.ok) throw new Error(validate.reason);
    const seen: unknown[] = [];
    const run = fc.check(
      fc.property(new ValidArguments(sourceOf(schema)), (args) => {
        seen.push(args);
        return (args.size as number) < 3;
      }),
      { seed: 11 },
    );
    expect(run.counterexample![0]).toEqual({ size: 3, tags: [] });
    expect(seen.every((value) => validate.validator.validate(value).valid)).toBe(true);
  });
});

describe('schemas that cannot be searched are skipped with the reason', () => {
  it.each([
    [
      'unsatisfiable',
      { type: 'object', properties: { a: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['a'] },
      /no valid arguments in 64 attempts/,
    ],
    [
      'too large',
      { type: 'object', properties: { a: { type: 'string', minLength: 1_000_000 } }, required: ['a'] },
      /too large to generate: minLength 1000000 at \/properties\/a/,
    ],
    [
      'huge pattern repeat',
      { type: 'object', properties: { a: { type: 'string', pattern: '^x{99999}$' } } },
      /repeats 99999 times/,
    ],
    [
      'unsupported dialect',
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
      /unsupported dialect/,
    ],
    [
      'an empty enum on a required property',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { c: { type: 'string', enum: [] } },
        required: ['c'],
      },
      /the enum at \/properties\/c\/enum is empty, so no value is valid there/,
    ],
    ['not an object', 'x', /not an object/],
    [
      'too slow to generate from',
      (() => {
        const branches = Array.from({ length: 16 }, (_, i) => ({ type: 'string', minLength: 10 + i, maxLength: i }));
        const properties = Object.fromEntries(
          Array.from({ length: 40 }, (_, i) => [`p${i}`, { anyOf: [...branches, { $ref: '#/$defs/x' }] }]),
        );
        return { type: 'object', $defs: { x: { anyOf: branches } }, properties, required: Object.keys(properties) };
      })(),
      /too complex to generate from|no valid arguments/,
    ],
  ])('%s', (_name, schema, reason) => {
    const prepared = prepareSource(schema);
    expect(prepared.ok).toBe(false);
    expect(prepared.ok ? '' : prepared.reason).toMatch(reason);
  });
});

describe('format is an annotation', () => {
  it('values whose validity hinges on a format are drawn only when no other value can be', () => {
    const wellFormed = prepareSource({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' } },
      required: ['when'],
    });
    if (!wellFormed.ok) throw new Error(wellFormed.reason);
    const drawn = Array.from({ length: 20 }, (_, seed) => wellFormed.source.valid(seed + 1)).filter(
      (value) => value !== undefined,
    );
    expect(drawn.length).toBeGreaterThan(0);
    for (const value of drawn)
      expect(wellFormed.source.validator.validate(value).format, JSON.stringify(value)).toBeUndefined();
    expect(wellFormed.source.isValid({ when: '2026-01-01T10:00:00' })).toBe(false);

    const tight = prepareSource({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time', maxLength: 4 } },
      required: ['when'],
    });
    if (!tight.ok) throw new Error(tight.reason);
    expect(tight.source.validator.validate(tight.source.fallback)).toMatchObject({
      valid: true,
      format: { rejectedUnder: 'assertion' },
    });
  });
});

describe('json-schema-faker never fetches or reads anything', () => {
  let canary: Awaited<ReturnType<typeof startCanary>>;
  beforeAll(async () => {
    canary = await startCanary();
  });
  afterAll(() => canary.close());

  it('refuses remote, relative and file references, directly and through prepareSource', async () => {
    const schemas = [
      { type: 'object', properties: { a: { $ref: `${canary.base}/a.json` } }, required: ['a'] },
      { $id: `${canary.base}/root.json`, type: 'object', properties: { a: { $ref: 'sibling.json' } }, required: ['a'] },
      { type: 'object', properties: { a: { $ref: 'file:///etc/passwd' } }, required: ['a'] },
    ];
    for (const schema of schemas) {
      expect(() => fake(fakerInput(schema), 1)).toThrow();
      const prepared = prepareSource(schema);
      expect(prepared.ok).toBe(false);
      expect(prepared.ok ? '' : prepared.reason).toMatch(/never (fetched|read)|cannot be resolved/);
    }
    await new Promise((settle) => setTimeout(settle, 100));
    expect(canary.requests).toEqual([]);
    await fetch(`${canary.base}/probe.json`).then((response) => response.text());
    expect(canary.requests).toEqual(['/probe.json']);
  });

  it('follows same-document references', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/a' } },
      required: ['a'],
      $defs: { a: { type: 'integer', minimum: 1 } },
    };
    expect(
      fc
        .sample(new ValidArguments(sourceOf(schema)), { seed: 1, numRuns: 20 })
        .every((v) => Number.isInteger(v.a) && (v.a as number) >= 1),
    ).toBe(true);
  });
});

describe('schema-invalid arguments', () => {
  it('are each rejected by the validator, and cover a pattern miss', () => {
    const schema = {
      ...LABEL,
      properties: { ...LABEL.properties, code: { type: 'string', pattern: '^[a-z]+$' } },
      required: ['style', 'text', 'code'],
    };
    const validate = compileArgumentSchema(schema);
    if (!validate.ok) throw new Error(validate.reason);
    const cases = fc.sample(invalidCases(sourceOf(schema)), { seed: 5, numRuns: 300 }).filter((c) => c !== undefined);
    expect(cases.length).toBe(300);
    expect(
      cases.every(
        (c) => !validate.validator.validate(c.mutation.value).valid && validate.validator.validate(c.valid).valid,
      ),
    ).toBe(true);
    const kinds = new Set(cases.map((c) => c.mutation.kind));
    for (const kind of [
      'missing-required',
      'wrong-type',
      'enum-miss',
      'pattern-miss',
      'below-minimum',
      'above-maximum',
      'extra-property',
      'null-value',
    ])
      expect(kinds).toContain(kind);
  });
});

describe('seeds and replay tokens', () => {
  it('derive a seed per check and tool, stable across runs', () => {
    expect(derivedSeed(1, 'a', 'echo')).toBe(derivedSeed(1, 'a', 'echo'));
    expect(
      new Set([
        derivedSeed(1, 'a', 'echo'),
        derivedSeed(2, 'a', 'echo'),
        derivedSeed(1, 'b', 'echo'),
        derivedSeed(1, 'a', 'ech0'),
      ]).size,
    ).toBe(4);
  });

  it('round-trip <tool>@<path>, whatever the tool is called', () => {
    for (const tool of ['echo', 'odd@name', 'a:1', 'x y'])
      expect(parseReplayToken(formatReplayToken({ tool, path: '12:0:3' }))).toEqual({ tool, path: '12:0:3' });
    expect(parseReplayToken('echo')).toBeUndefined();
    expect(parseReplayToken('echo@x')).toBeUndefined();
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('search', () => {
  const exchange = (failure?: { kind: 'timeout'; message: string }) => ({
    seq: 1,
    sentAt: '',
    durationMs: 0,
    request: {},
    notifications: [],
    ...(failure ? { failure } : { response: { jsonrpc: '2.0', id: 1, result: {} } }),
  });

  it('stops at the first case that times out and reports it as slow, not as a counterexample', async () => {
    let calls = 0;
    const result = await search(
      { arbitrary: new ValidArguments(sourceOf(LABEL)), argumentsOf: (args) => args, judge: () => 'never reached' },
      {
        seed: 1,
        runs: 50,
        call: async () => (calls += 1) && exchange({ kind: 'timeout', message: 'no response within 10 ms' }),
      },
    );
    expect(calls).toBe(1);
    expect(result.failure).toBeUndefined();
    expect(result.slow?.exchange.failure?.kind).toBe('timeout');
  });

  it('shrinks a float to a simple number in a few steps, never sending the same arguments twice', async () => {
    const schema = {
      type: 'object',
      properties: { b: { type: 'number' } },
      required: ['b'],
      additionalProperties: false,
    };
    const sent: string[] = [];
    const spec = {
      arbitrary: new ValidArguments(sourceOf(schema)),
      argumentsOf: (args: Record<string, unknown>) => args,
      // Fails for any positive b: shrinking by halving used to walk toward 5e-324 for hundreds of steps.
      judge: (_e: unknown, c: Record<string, unknown>) => ((c.b as number) > 0 ? 'positive' : undefined),
    };
    const result = await search(spec, {
      seed: 3,
      runs: 100,
      call: async (args) => (sent.push(JSON.stringify(args)), exchange()),
    });
    expect(result.failure?.shrunk.args).toEqual({ b: 1 });
    expect(new Set(sent).size).toBe(sent.length);
    expect(result.failure!.shrinkStopped).toBeUndefined();
    expect(sent.length - result.cases).toBeLessThanOrEqual(12);
  });

  it('shrinks within its budget of calls, and says so when the budget is used', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const schema = {
      type: 'object',
      properties: Object.fromEntries(names.map((n) => [n, { type: 'number' }])),
      required: names,
      additionalProperties: false,
    };
    const sent: string[] = [];
    const spec = {
      arbitrary: new ValidArguments(sourceOf(schema)),
      argumentsOf: (args: Record<string, unknown>) => args,
      // Fails while no value is 0: each of the 40 values shrinks on its own, several calls each.
      judge: (_e: unknown, c: Record<string, unknown>) =>
        Object.values(c).every((v) => v !== 0) ? 'no zero' : undefined,
    };
    const result = await search(spec, {
      seed: 3,
      runs: 100,
      call: async (args) => (sent.push(JSON.stringify(args)), exchange()),
    });
    expect(result.failure).toBeDefined();
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.length).toBeLessThanOrEqual(result.cases + SHRINK_BUDGET.calls);
    expect(result.failure!.shrinkStopped).toEqual({
      calls: SHRINK_BUDGET.calls,
      why: 'the budget of 100 calls was used',
    });
  });

  it('stops early when its answers are slow, after at least the minimum of cases, and says how many ran', async () => {
    const answerIn = (ms: number) => async () => ({ ...exchange(), durationMs: ms });
    const spec = {
      arbitrary: new ValidArguments(sourceOf(LABEL)),
      argumentsOf: (args: Record<string, unknown>) => args,
      judge: () => undefined,
    };
    let calls = 0;
    const slow = await search(spec, { seed: 1, runs: 50, call: async () => ((calls += 1), answerIn(500)()) });
    // 50 runs allow 50 × 100 ms of answer time: ten 500 ms answers pass it.
    expect(slow.slowed).toEqual({ cases: SLOW_SEARCH.minCases, meanMs: 500 });
    expect(slow.cases).toBe(SLOW_SEARCH.minCases);
    expect(calls).toBe(SLOW_SEARCH.minCases);
    const fast = await search(spec, { seed: 1, runs: 50, call: answerIn(80) });
    expect(fast.slowed).toBeUndefined();
    expect(fast.cases).toBe(50);
  });

  it('with a smaller allowance and a minimum of one case, stops before the case that would overrun it', async () => {
    const spec = {
      arbitrary: new ValidArguments(sourceOf(LABEL)),
      argumentsOf: (args: Record<string, unknown>) => args,
      judge: () => undefined,
    };
    let calls = 0;
    const call = async () => ((calls += 1), { ...exchange(), durationMs: 500 });
    const shared = await search(spec, { seed: 1, runs: 50, slowStop: { allowanceMs: 1200, minCases: 1 }, call });
    // Two answers take 1000 ms; a third would take the search to 1500.
    expect(shared.slowed).toEqual({ cases: 2, meanMs: 500 });
    expect(calls).toBe(2);
    calls = 0;
    const slower = await search(spec, {
      seed: 1,
      runs: 50,
      slowStop: { allowanceMs: 1200, minCases: 1 },
      call: async () => ((calls += 1), { ...exchange(), durationMs: 3000 }),
    });
    expect(slower.slowed).toEqual({ cases: 1, meanMs: 3000 });
    expect(calls).toBe(1);
  });

  it('a failure found before the answers were too slow is still shrunk and reported', async () => {
    const spec = {
      arbitrary: new ValidArguments(sourceOf(LABEL)),
      argumentsOf: (args: Record<string, unknown>) => args,
      judge: (_e: unknown, c: Record<string, unknown>) => (c.style === 'code' ? 'code style' : undefined),
    };
    const result = await search(spec, { seed: 9, runs: 100, call: async () => ({ ...exchange(), durationMs: 900 }) });
    expect(result.failure?.shrunk.args).toEqual({ style: 'code', text: '' });
    expect(result.slowed).toBeUndefined();
  });

  it('replays exactly the case at a path, without shrinking', async () => {
    const spec = {
      arbitrary: new ValidArguments(sourceOf(LABEL)),
      argumentsOf: (args: Record<string, unknown>) => args,
      judge: (_e: unknown, c: Record<string, unknown>) => (c.style === 'code' ? 'code style' : undefined),
    };
    const found = await search(spec, { seed: 9, runs: 100, call: async () => exchange() });
    expect(found.failure?.shrunk.args).toEqual({ style: 'code', text: '' });
    let calls = 0;
    const replayed = await search(spec, {
      seed: 9,
      runs: 100,
      path: found.failure!.path,
      call: async () => (calls += 1) && exchange(),
    });
    expect(calls).toBe(1);
    expect(replayed.failure?.shrunk.args).toEqual({ style: 'code', text: '' });
  });
});
