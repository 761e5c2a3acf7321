import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { DEFINITIONS_DEFECTS } from './definitions.js';
import { showsEachDeviation, listed, extra, header } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'tool-name-too-long': (ctx) => expect(extra(ctx).name).toHaveLength(129),
  'tool-name-with-space': (ctx) => expect(extra(ctx).name).toBe('get forecast'),
  'tool-title-not-string': (ctx) => expect(listed(ctx)[0]!.title).toBe(42),
  'tool-without-description': (ctx) => expect(listed(ctx)[1]).not.toHaveProperty('description'),
  'hidden-text-in-description': (ctx) => expect(listed(ctx)[1]!.description).toContain('docu\u200Bmentation'),
  'input-schema-not-object': (ctx) => expect(extra(ctx).inputSchema).toEqual({ type: 'string' }),
  'annotation-not-boolean': (ctx) => expect(listed(ctx)[0]!.annotations.readOnlyHint).toBe('yes'),
  'icon-sizes-not-array': (ctx) => expect(listed(ctx)[0]!.icons[0].sizes).toBe('48x48'),
  'icon-javascript-scheme': (ctx) => expect(listed(ctx)[0]!.icons[0].src).toMatch(/^javascript:/),
  'invalid-input-schema': (ctx) => expect(extra(ctx).inputSchema.properties.a.type).toBe('strng'),
  'invalid-output-schema': (ctx) => expect(extra(ctx).outputSchema.required).toBe('temperature'),
  'draft-07-schema': (ctx) => expect(extra(ctx).inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#'),
  'dangling-ref': (ctx) => expect(extra(ctx).inputSchema.properties.a.$ref).toBe('#/$defs/missing'),
  'external-ref': (ctx) => expect(extra(ctx).inputSchema.properties.a.$ref).toMatch(/^https:/),
  'xmcp-empty': (ctx) => expect(header(ctx, 'region')).toBe(''),
  'xmcp-not-token': (ctx) => expect(header(ctx, 'region')).toBe('My Region'),
  'xmcp-control-char': (ctx) => expect(header(ctx, 'region')).toMatch(/\r\n/),
  'xmcp-duplicate': (ctx) => expect([header(ctx, 'region'), header(ctx, 'zone')]).toEqual(['Region', 'REGION']),
  'xmcp-number': (ctx) => expect(extra(ctx).inputSchema.properties.ratio.type).toBe('number'),
  'xmcp-unsafe-integer': (ctx) => expect(extra(ctx).inputSchema.properties.shard.minimum).toBe(2 ** 60),
  'xmcp-unreachable': (ctx) => expect(extra(ctx).inputSchema.properties.tags.items['x-mcp-header']).toBe('Tag'),
  'python-style-pattern': (ctx) =>
    expect(listed(ctx).find((t) => t.name === 'get_weather')!.inputSchema.properties.location.pattern).toBe(
      '^(?P<city>.+)\\Z',
    ),
  'xmcp-property-named-default': (ctx) => {
    expect(header(ctx, 'default')).toBe('Default');
    expect(listed(ctx).at(-2)!.inputSchema.properties['x-mcp-header']).toMatchObject({ type: 'string' });
  },
};

showsEachDeviation(DEFINITIONS_DEFECTS, DEVIATIONS);
