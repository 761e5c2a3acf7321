import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Revision } from '../../src/core/revision.js';
import { inputSchemaValid, patternsEcma, refsResolve } from './json-schema.js';

/** Just enough context for a check that reads the tool list, on `wire`. */
function listing(wire: Revision, ...tools: Record<string, unknown>[]): CheckContext {
  const page = { result: { tools }, exchange: { seq: 1 } };
  return {
    revision: wire,
    tools: async () => ({ pages: [page], tools, stop: { kind: 'complete' } }),
  } as unknown as CheckContext;
}

/** A tuple `items` array: valid in draft-07 (and 2019-09), invalid in 2020-12. */
const DRAFT_07_TUPLE = {
  type: 'object',
  properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
};

describe('jsonschema.valid.input without $schema', () => {
  it('holds it to 2020-12 from 2025-11-25 on, which names that default dialect', async () => {
    const [result] = (
      await inputSchemaValid.run(listing('2025-11-25', { name: 't', inputSchema: DRAFT_07_TUPLE }))
    ).map((o) => toResult(inputSchemaValid, o, 0, '2025-11-25'));
    expect(result).toMatchObject({ status: 'fail', keywordText: 'MUST', tool: 't' });
    expect(result!.message).toContain('(2020-12)');
  });

  it.each(['2025-06-18', '2025-03-26', '2024-11-05'] as const)(
    'accepts it in any dialect on %s, which names no default',
    async (wire) => {
      const outcomes = await inputSchemaValid.run(listing(wire, { name: 't', inputSchema: DRAFT_07_TUPLE }));
      expect(outcomes.map((o) => [o.status, o.message])).toEqual([['pass', '1 input schemas checked']]);
    },
  );

  it('only warns on 2024-11-05 about a schema no dialect accepts, quoting the tool page that names it a JSON Schema', async () => {
    const invalid = { type: 'object', properties: { a: { type: 'text' } } };
    const [result] = (await inputSchemaValid.run(listing('2024-11-05', { name: 't', inputSchema: invalid }))).map((o) =>
      toResult(inputSchemaValid, o, 0, '2024-11-05'),
    );
    expect(result).toMatchObject({
      status: 'warn',
      keywordText: 'descriptive',
      specRef: 'server/tools#tool',
      quote: 'inputSchema: JSON Schema defining expected parameters',
    });
    expect(result!.message).toMatch(
      /declares no \$schema and is a valid JSON Schema in none of 2020-12, 2019-09, draft-07, draft-06, draft-04 \(2024-11-05 names no default dialect\)/,
    );
  });
});

describe('the tool schemas each revision defines', () => {
  const dangling = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };

  it('judges outputSchema from 2025-06-18 on, quoting the tool page on it there', async () => {
    const outcomes = await refsResolve.run(
      listing('2025-06-18', { name: 't', inputSchema: { type: 'object' }, outputSchema: dangling }),
    );
    const results = outcomes.map((o) => toResult(refsResolve, o, 0, '2025-06-18'));
    expect(results.map((r) => [r.status, r.quote])).toEqual([
      ['pass', 'inputSchema: JSON Schema defining expected parameters'],
      ['warn', 'outputSchema: Optional JSON Schema defining expected output structure'],
    ]);
  });

  it('leaves outputSchema alone on 2025-03-26, which has no such field', async () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { ...dangling, properties: { a: { $ref: '#/$defs/missing', pattern: '(?<x' } } },
    };
    expect((await refsResolve.run(listing('2025-03-26', tool))).map((o) => o.status)).toEqual(['pass']);
    expect((await patternsEcma.run(listing('2025-03-26', tool))).map((o) => o.status)).toEqual(['skip']);
    expect(
      (await patternsEcma.run(listing('2025-06-18', tool))).map(
        (o) => toResult(patternsEcma, o, 0, '2025-06-18').quote,
      ),
    ).toEqual(['outputSchema: Optional JSON Schema defining expected output structure']);
  });
});
