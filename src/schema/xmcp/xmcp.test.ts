import { describe, expect, it } from 'vitest';
import { checkHeaderAnnotations, findHeaderAnnotations } from './index.js';

const rulesFor = (schema: unknown) => checkHeaderAnnotations(findHeaderAnnotations(schema).annotations).map((f) => f.rule);
const prop = (inner: Record<string, unknown>) => ({ type: 'object', properties: { region: { type: 'string', ...inner } } });

describe('x-mcp-header static rules (server/tools#x-mcp-header)', () => {
  it('accepts the spec example and nested properties chains', () => {
    expect(rulesFor(prop({ 'x-mcp-header': 'Region' }))).toEqual([]);
    const nested = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer', 'x-mcp-header': 'B', maximum: 10 } } } } };
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
    const schema = { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } } };
    expect(rulesFor(schema)).toEqual(['xmcp.value.unique-ci']);
  });

  it.each([
    [{ type: 'number' }, ['xmcp.target.primitive']],
    [{ type: 'object' }, ['xmcp.target.primitive']],
    [{ type: ['string', 'null'] }, []],
    [{ type: ['string', 'integer'] }, ['xmcp.target.primitive']],
    [{ enum: ['a', 'b'] }, []],
    [{ enum: ['a', 1] }, ['xmcp.target.primitive']],
    [{}, ['xmcp.target.primitive']],
    [{ type: 'integer', maximum: 2 ** 53 }, ['xmcp.target.int-safe-range']],
    [{ type: 'integer', minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 }, []],
  ])('target %j → %j', (schema, rules) => {
    expect(rulesFor({ type: 'object', properties: { p: { ...schema, 'x-mcp-header': 'P' } } })).toEqual(rules);
  });

  it.each([
    ['items', { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } }],
    ['anyOf', { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }],
    ['$defs', { type: 'object', $defs: { a: { type: 'string', 'x-mcp-header': 'A' } }, properties: { a: { $ref: '#/$defs/a' } } }],
    ['additionalProperties', { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } }],
    ['the root', { type: 'object', 'x-mcp-header': 'Root' }],
  ])('an annotation under %s is not statically reachable', (_, schema) => {
    expect(rulesFor(schema)).toContain('xmcp.target.static-reach');
  });

  it.each(['password', 'apiKey', 'api_key', 'accessToken', 'user_email', 'Authorization'])('warns on a sensitive-looking property %s', (name) => {
    expect(rulesFor({ type: 'object', properties: { [name]: { type: 'string', 'x-mcp-header': 'X' } } })).toEqual(['xmcp.server.no-sensitive']);
  });

  it.each(['max_tokens', 'author', 'region', 'tenant_id'])('does not warn on %s', (name) => {
    expect(rulesFor({ type: 'object', properties: { [name]: { type: 'string', 'x-mcp-header': 'X' } } })).toEqual([]);
  });

  it('takes a property named x-mcp-header for a property, not for an annotation', () => {
    const schema = { type: 'object', properties: { 'x-mcp-header': { type: 'number', description: 'a plain parameter' } } };
    expect(findHeaderAnnotations(schema).annotations).toEqual([]);
    expect(rulesFor(schema)).toEqual([]);
    const annotated = { type: 'object', properties: { 'x-mcp-header': { type: 'string', 'x-mcp-header': 'Name' } } };
    expect(findHeaderAnnotations(annotated).annotations.map((a) => [a.pointer, a.propertyPath])).toEqual([['/properties/x-mcp-header', ['x-mcp-header']]]);
    expect(rulesFor(annotated)).toEqual([]);
  });

  it.each(['default', 'enum', 'const', 'examples'])('inspects a property named %s', (name) => {
    const schema = { type: 'object', properties: { [name]: { type: 'number', 'x-mcp-header': 'Amount' } } };
    expect(findHeaderAnnotations(schema).annotations.map((a) => a.pointer)).toEqual([`/properties/${name}`]);
    expect(rulesFor(schema)).toEqual(['xmcp.target.primitive']);
  });

  it('never enters data keywords (const, enum, default, examples) as schemas', () => {
    const data = { 'x-mcp-header': 'Bad Name' };
    const schema = { type: 'object', default: data, examples: [data], const: data, enum: [data], 'x-vendor': data, properties: {} };
    expect(findHeaderAnnotations(schema).annotations).toEqual([]);
  });

  it('walks a hostile, very deep schema without blowing the stack', () => {
    let deep: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { n: deep } };
    const { truncated } = findHeaderAnnotations(deep);
    expect(truncated).toBe(true);
  });
});
