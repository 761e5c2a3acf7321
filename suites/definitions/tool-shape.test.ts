import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { ResultSchemaCache } from '../../src/runner/result-schemas.js';
import { toResult } from '../../src/runner/runner.js';
import { compareRevisions, REVISIONS, type Revision } from '../../src/core/revision.js';
import { WIRE_SCHEMAS } from '../../src/schema/wire/schemas-by-revision.js';
import { iconScheme, TOOL_SHAPE_RULES, toolShape } from './tool-shape.js';

/** Just enough context for a check that reads the tool list. */
function listing(...srcs: string[]): CheckContext {
  const tools = srcs.map((src, i) => ({ name: `t${i}`, inputSchema: { type: 'object' }, icons: [{ src }] }));
  const page = { result: { tools }, exchange: { seq: 1 } };
  return { tools: async () => ({ pages: [page], tools, stop: { kind: 'complete' } }) } as unknown as CheckContext;
}

describe('icons.safe-scheme', () => {
  it.each(['http://example.com/i.png', 'https://example.com/i.png', 'data:image/png;base64,iVBORw0KGgo='])(
    'accepts %s (a form basic/index gives for src)',
    async (src) => {
      const outcomes = await iconScheme.run(listing(src));
      expect(outcomes.map((o) => o.status)).toEqual(['pass']);
    },
  );

  it.each(['2026-07-28', '2025-11-25'] as const)(
    'reports a javascript: or file: src as a warning, never a failure (%s)',
    async (wire) => {
      const outcomes = await iconScheme.run(listing('javascript:alert(1)', 'file:///etc/icon.png'));
      expect(outcomes.map((o) => o.tool)).toEqual(['t0', 't1']);
      const results = outcomes.map((o) => toResult(iconScheme, o, 0, wire));
      expect(results.map((r) => [r.status, r.keywordText])).toEqual([
        ['warn', 'descriptive'],
        ['warn', 'descriptive'],
      ]);
      expect(results[0]!.message).toContain('neither an HTTP/HTTPS URL nor a data: URI');
    },
  );
});

/** A context whose tools/list page holds `tools`, validated against the wire schema as an audit does. */
function listed(wire: Revision, tools: unknown[]): CheckContext {
  const result = wire === '2026-07-28' ? { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools } : { tools };
  const exchange = {
    seq: 1,
    sentAt: '',
    durationMs: 0,
    request: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    response: { jsonrpc: '2.0', id: 1, result },
    notifications: [],
  };
  const page = { result, exchange };
  return {
    revision: wire,
    schemas: new ResultSchemaCache(),
    tools: async () => ({ pages: [page], tools, stop: { kind: 'complete' } }),
  } as unknown as CheckContext;
}

/**
 * Every keyword of the wire Tool schema that tools.tool.shape owns (not under inputSchema, annotations or icons), as
 * Ajv names it.
 */
function ownedKeywords(schema: Record<string, unknown>, at = ''): string[] {
  return Object.entries(schema).flatMap(([keyword, value]) => {
    if (keyword === 'properties') {
      return Object.entries(value as Record<string, Record<string, unknown>>)
        .filter(([name]) => at !== '' || !['inputSchema', 'annotations', 'icons'].includes(name))
        .flatMap(([name, sub]) => ownedKeywords(sub, `${at}/properties/${name}`));
    }
    if (keyword === 'items' || keyword === 'additionalProperties')
      return ownedKeywords(value as Record<string, unknown>, `${at}/${keyword}`);
    return [`${at}/${keyword}`];
  });
}

describe('tools.tool.shape', () => {
  it.each(REVISIONS)('names a schema.json rule for every keyword of the wire Tool schema it owns (%s)', (wire) => {
    const owned = ownedKeywords(WIRE_SCHEMAS[wire].Tool as Record<string, unknown>);
    expect(owned).toEqual(expect.arrayContaining(['/required', '/properties/name/type']));
    expect(owned.filter((at) => !TOOL_SHAPE_RULES[wire].some((r) => r.at === at))).toEqual([]);
    expect(TOOL_SHAPE_RULES[wire].filter((r) => !owned.includes(r.at)).map((r) => r.at)).toEqual([]);
  });

  it.each(REVISIONS)('quotes the rule each tool broke, one result per tool and rule (%s)', async (wire) => {
    const tools = [
      { name: 'a', inputSchema: { type: 'object' }, title: 42 },
      { name: 'b', inputSchema: { type: 'object' }, description: ['x'], outputSchema: 'none' },
      { inputSchema: { type: 'object' } },
      { name: 'fine', inputSchema: { type: 'object' } },
    ];
    const outcomes = await toolShape.run(listed(wire, tools));
    const results = outcomes.map((o) => toResult(toolShape, o, 0, wire));
    // draft-07 schema.json files (before 2025-11-25) keep their definitions under `definitions`.
    const tool = `schema.json#/${compareRevisions(wire, '2025-11-25') >= 0 ? '$defs' : 'definitions'}/Tool`;
    // title and outputSchema arrive with 2025-06-18: before it they are members the schema does not name, so anything
    // goes.
    const titled = compareRevisions(wire, '2025-06-18') >= 0;
    expect(results.map((r) => [r.tool, r.status, r.specRef, r.quote])).toEqual([
      ...(titled ? [['a', 'fail', `${tool}/properties/title/type`, '"string"']] : []),
      ['b', 'fail', `${tool}/properties/description/type`, '"string"'],
      ...(titled ? [['b', 'fail', `${tool}/properties/outputSchema/type`, '"object"']] : []),
      ['#3', 'fail', `${tool}/required`, '["inputSchema","name"]'],
    ]);
    expect(results[0]!.message).toBe(titled ? '/title must be string' : '/description must be string');
  });

  it('quotes the rules of the wire in use: _meta is a MetaObject on 2026-07-28, taskSupport an enum on 2025-11-25', async () => {
    const meta = { name: 'm', inputSchema: { type: 'object' }, _meta: 'x' };
    const [onLatest] = (await toolShape.run(listed('2026-07-28', [meta]))).map((o) =>
      toResult(toolShape, o, 0, '2026-07-28'),
    );
    expect(onLatest).toMatchObject({ specRef: 'schema.json#/$defs/MetaObject/type', quote: '"object"' });
    const task = { name: 't', inputSchema: { type: 'object' }, execution: { taskSupport: 'sometimes' } };
    const [onEarlier] = (await toolShape.run(listed('2025-11-25', [task]))).map((o) =>
      toResult(toolShape, o, 0, '2025-11-25'),
    );
    expect(onEarlier).toMatchObject({
      status: 'fail',
      specRef: 'schema.json#/$defs/ToolExecution/properties/taskSupport/enum',
      quote: '["forbidden","optional","required"]',
    });
  });
});
