import { describe, expect, it } from 'vitest';
import { validateWire, type SchemaIssue, type WireSchemaName } from './validator.js';

const WIRE = '2026-07-28';

const tool = () => ({
  name: 'get_weather',
  title: 'Weather',
  inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  annotations: { readOnlyHint: true },
  icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
});

const listToolsResult = () => ({
  resultType: 'complete',
  tools: [tool(), tool(), tool(), tool()],
  nextCursor: 'c2',
  ttlMs: 60000,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '1.0.0' } },
});

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const callToolResult = () => ({
  resultType: 'complete',
  content: [
    { type: 'image', data: PNG_BASE64, mimeType: 'image/png', annotations: { audience: ['user'], priority: 0.5 } },
    { type: 'text', text: 'hello' },
  ] as Record<string, unknown>[],
  structuredContent: { ok: true },
  isError: false,
});

const discoverResult = () => ({
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true } },
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '1.0.0' } },
});

const resultResponse = () => ({ jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } });
const errorResponse = () => ({ jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'Unknown tool: x' } });

/** Applies `change` to a fresh copy of the fixture. */
function variant<T>(make: () => T, change: (value: T) => void): T {
  const value = make();
  change(value);
  return value;
}

interface Expected {
  instancePath: string;
  keyword: string;
  params?: Record<string, unknown>;
}

interface Case {
  rule: string;
  schema: WireSchemaName;
  value: unknown;
  expected: Expected;
}

function expectIssue(issues: SchemaIssue[], expected: Expected): void {
  expect(issues, JSON.stringify(issues, null, 1)).toContainEqual(expect.objectContaining(expected));
}

describe('valid fixtures used as the base of every variant', () => {
  const fixtures: Array<[WireSchemaName, unknown]> = [
    ['Tool', tool()],
    ['ListToolsResult', listToolsResult()],
    ['CallToolResult', callToolResult()],
    ['DiscoverResult', discoverResult()],
    ['JSONRPCResultResponse', resultResponse()],
    ['JSONRPCMessage', resultResponse()],
    ['JSONRPCErrorResponse', errorResponse()],
    ['JSONRPCMessage', errorResponse()],
    ['InvalidParamsError', errorResponse()],
  ];
  it.each(fixtures)('%s fixture is valid', (schema, value) => {
    expect(validateWire(schema, WIRE, value)).toEqual([]);
  });
});

const LIST_TOOLS_CASES: Case[] = [
  {
    rule: 'missing resultType',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => delete (r as Partial<typeof r>).resultType),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'resultType' } },
  },
  {
    rule: 'resultType input_required is not allowed on tools/list',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => (r.resultType = 'input_required')),
    expected: { instancePath: '/resultType', keyword: 'const' },
  },
  {
    rule: 'missing ttlMs',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => delete (r as Partial<typeof r>).ttlMs),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'ttlMs' } },
  },
  {
    rule: 'missing cacheScope',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => delete (r as Partial<typeof r>).cacheScope),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'cacheScope' } },
  },
  {
    rule: 'ttlMs -1',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => (r.ttlMs = -1)),
    expected: { instancePath: '/ttlMs', keyword: 'minimum' },
  },
  {
    rule: 'ttlMs 1.5',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => (r.ttlMs = 1.5)),
    expected: { instancePath: '/ttlMs', keyword: 'type' },
  },
  {
    rule: 'cacheScope "shared"',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => (r.cacheScope = 'shared')),
    expected: { instancePath: '/cacheScope', keyword: 'enum' },
  },
  {
    rule: 'tools not an array',
    schema: 'ListToolsResult',
    value: { ...listToolsResult(), tools: { get_weather: tool() } },
    expected: { instancePath: '/tools', keyword: 'type', params: { type: 'array' } },
  },
  {
    rule: 'nextCursor not a string',
    schema: 'ListToolsResult',
    value: { ...listToolsResult(), nextCursor: 2 },
    expected: { instancePath: '/nextCursor', keyword: 'type' },
  },
  {
    rule: 'tools[3].name not a string',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => ((r.tools[3] as Record<string, unknown>).name = 42)),
    expected: { instancePath: '/tools/3/name', keyword: 'type' },
  },
  {
    rule: 'tool in a list without inputSchema',
    schema: 'ListToolsResult',
    value: variant(listToolsResult, (r) => delete (r.tools[1] as Partial<ReturnType<typeof tool>>).inputSchema),
    expected: { instancePath: '/tools/1', keyword: 'required', params: { missingProperty: 'inputSchema' } },
  },
  {
    rule: 'serverInfo in _meta without version',
    schema: 'ListToolsResult',
    value: { ...listToolsResult(), _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv' } } },
    expected: {
      instancePath: '/_meta/io.modelcontextprotocol~1serverInfo',
      keyword: 'required',
      params: { missingProperty: 'version' },
    },
  },
];

const TOOL_CASES: Case[] = [
  {
    rule: 'Tool without name',
    schema: 'Tool',
    value: variant(tool, (t) => delete (t as Partial<typeof t>).name),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'name' } },
  },
  {
    rule: 'Tool without inputSchema',
    schema: 'Tool',
    value: variant(tool, (t) => delete (t as Partial<typeof t>).inputSchema),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'inputSchema' } },
  },
  {
    rule: 'inputSchema type "string"',
    schema: 'Tool',
    value: { ...tool(), inputSchema: { type: 'string' } },
    expected: { instancePath: '/inputSchema/type', keyword: 'const', params: { allowedValue: 'object' } },
  },
  {
    rule: 'inputSchema without type',
    schema: 'Tool',
    value: { ...tool(), inputSchema: { properties: {} } },
    expected: { instancePath: '/inputSchema', keyword: 'required', params: { missingProperty: 'type' } },
  },
  {
    rule: 'inputSchema null',
    schema: 'Tool',
    value: { ...tool(), inputSchema: null },
    expected: { instancePath: '/inputSchema', keyword: 'type', params: { type: 'object' } },
  },
  {
    rule: 'inputSchema $schema not a string',
    schema: 'Tool',
    value: { ...tool(), inputSchema: { type: 'object', $schema: 7 } },
    expected: { instancePath: '/inputSchema/$schema', keyword: 'type' },
  },
  {
    rule: 'outputSchema as a boolean schema',
    schema: 'Tool',
    value: { ...tool(), outputSchema: true },
    expected: { instancePath: '/outputSchema', keyword: 'type', params: { type: 'object' } },
  },
  {
    rule: 'annotations.readOnlyHint not a boolean',
    schema: 'Tool',
    value: { ...tool(), annotations: { readOnlyHint: 'yes' } },
    expected: { instancePath: '/annotations/readOnlyHint', keyword: 'type' },
  },
  {
    rule: 'annotations.title not a string',
    schema: 'Tool',
    value: { ...tool(), annotations: { title: 1 } },
    expected: { instancePath: '/annotations/title', keyword: 'type' },
  },
  {
    rule: 'icon src not a URI',
    schema: 'Tool',
    value: { ...tool(), icons: [{ src: 'not a uri' }] },
    expected: { instancePath: '/icons/0/src', keyword: 'format', params: { format: 'uri' } },
  },
  {
    rule: 'icon theme outside light|dark',
    schema: 'Tool',
    value: { ...tool(), icons: [{ src: 'https://example.com/a.png', theme: 'blue' }] },
    expected: { instancePath: '/icons/0/theme', keyword: 'enum' },
  },
  {
    rule: '_meta not an object',
    schema: 'Tool',
    value: { ...tool(), _meta: [] },
    expected: { instancePath: '/_meta', keyword: 'type' },
  },
];

const withBlock = (block: Record<string, unknown>) => variant(callToolResult, (r) => (r.content[0] = block));
const image = (changes: Record<string, unknown>) => ({
  type: 'image',
  data: PNG_BASE64,
  mimeType: 'image/png',
  ...changes,
});

const CALL_TOOL_CASES: Case[] = [
  {
    rule: 'missing content',
    schema: 'CallToolResult',
    value: variant(callToolResult, (r) => delete (r as Partial<typeof r>).content),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'content' } },
  },
  {
    rule: 'resultType input_required on a complete result',
    schema: 'CallToolResult',
    value: { ...callToolResult(), resultType: 'input_required' },
    expected: { instancePath: '/resultType', keyword: 'const', params: { allowedValue: 'complete' } },
  },
  {
    rule: 'isError not a boolean',
    schema: 'CallToolResult',
    value: { ...callToolResult(), isError: 'false' },
    expected: { instancePath: '/isError', keyword: 'type' },
  },
  {
    rule: 'image block without mimeType',
    schema: 'CallToolResult',
    value: withBlock({ type: 'image', data: PNG_BASE64 }),
    expected: { instancePath: '/content/0', keyword: 'required', params: { missingProperty: 'mimeType' } },
  },
  {
    rule: 'image mimeType not a string',
    schema: 'CallToolResult',
    value: withBlock(image({ mimeType: 5 })),
    expected: { instancePath: '/content/0/mimeType', keyword: 'type' },
  },
  {
    rule: 'image data not base64',
    schema: 'CallToolResult',
    value: withBlock(image({ data: 'not base64!' })),
    expected: { instancePath: '/content/0/data', keyword: 'pattern' },
  },
  {
    rule: 'image data with a bad base64 length',
    schema: 'CallToolResult',
    value: withBlock(image({ data: 'abc' })),
    expected: { instancePath: '/content/0/data', keyword: 'pattern' },
  },
  {
    rule: 'audio block without data',
    schema: 'CallToolResult',
    value: withBlock({ type: 'audio', mimeType: 'audio/wav' }),
    expected: { instancePath: '/content/0', keyword: 'required', params: { missingProperty: 'data' } },
  },
  {
    rule: 'annotations.priority 1.5',
    schema: 'CallToolResult',
    value: withBlock(image({ annotations: { priority: 1.5 } })),
    expected: { instancePath: '/content/0/annotations/priority', keyword: 'maximum' },
  },
  {
    rule: 'annotations.priority -0.1',
    schema: 'CallToolResult',
    value: withBlock({ type: 'text', text: 't', annotations: { priority: -0.1 } }),
    expected: { instancePath: '/content/0/annotations/priority', keyword: 'minimum' },
  },
  {
    rule: 'annotations.audience "robot"',
    schema: 'CallToolResult',
    value: withBlock({ type: 'text', text: 't', annotations: { audience: ['user', 'robot'] } }),
    expected: { instancePath: '/content/0/annotations/audience/1', keyword: 'enum' },
  },
  {
    rule: 'annotations.lastModified not a string',
    schema: 'CallToolResult',
    value: withBlock({ type: 'text', text: 't', annotations: { lastModified: 1736694058 } }),
    expected: { instancePath: '/content/0/annotations/lastModified', keyword: 'type' },
  },
  {
    rule: 'text block without text',
    schema: 'CallToolResult',
    value: withBlock({ type: 'text' }),
    expected: { instancePath: '/content/0', keyword: 'required', params: { missingProperty: 'text' } },
  },
  {
    rule: 'unknown content type',
    schema: 'CallToolResult',
    value: withBlock({ type: 'video', data: PNG_BASE64 }),
    expected: { instancePath: '/content/0/type', keyword: 'enum' },
  },
  {
    rule: 'content block without type',
    schema: 'CallToolResult',
    value: withBlock({ text: 'hello' }),
    expected: { instancePath: '/content/0', keyword: 'required', params: { missingProperty: 'type' } },
  },
  {
    rule: 'resource_link without name',
    schema: 'CallToolResult',
    value: withBlock({ type: 'resource_link', uri: 'file:///a.txt' }),
    expected: { instancePath: '/content/0', keyword: 'required', params: { missingProperty: 'name' } },
  },
  {
    rule: 'embedded resource with neither text nor blob',
    schema: 'CallToolResult',
    value: withBlock({ type: 'resource', resource: { uri: 'file:///a.txt' } }),
    expected: { instancePath: '/content/0/resource', keyword: 'required', params: { missingProperty: 'text' } },
  },
  {
    rule: 'embedded resource blob not base64',
    schema: 'CallToolResult',
    value: withBlock({ type: 'resource', resource: { uri: 'file:///a.bin', blob: '@@@@' } }),
    expected: { instancePath: '/content/0/resource/blob', keyword: 'pattern' },
  },
  {
    rule: 'embedded resource without uri',
    schema: 'ContentBlock',
    value: { type: 'resource', resource: { text: 'x' } },
    expected: { instancePath: '/resource', keyword: 'required', params: { missingProperty: 'uri' } },
  },
];

const ENVELOPE_CASES: Case[] = [
  {
    rule: 'jsonrpc "1.0"',
    schema: 'JSONRPCMessage',
    value: { ...resultResponse(), jsonrpc: '1.0' },
    expected: { instancePath: '/jsonrpc', keyword: 'const' },
  },
  {
    rule: 'id null on a result',
    schema: 'JSONRPCMessage',
    value: { ...resultResponse(), id: null },
    expected: { instancePath: '/id', keyword: 'type' },
  },
  {
    rule: 'id 1.5 on a result',
    schema: 'JSONRPCResultResponse',
    value: { ...resultResponse(), id: 1.5 },
    expected: { instancePath: '/id', keyword: 'type' },
  },
  {
    rule: 'result response without id',
    schema: 'JSONRPCMessage',
    value: { jsonrpc: '2.0', result: {} },
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'id' } },
  },
  {
    rule: 'result not an object',
    schema: 'JSONRPCMessage',
    value: { ...resultResponse(), result: 'ok' },
    expected: { instancePath: '/result', keyword: 'type' },
  },
  {
    rule: 'both result and error',
    schema: 'JSONRPCMessage',
    value: { ...errorResponse(), result: {} },
    expected: { instancePath: '/result', keyword: 'false schema' },
  },
  {
    rule: 'both result and error, checked as a result response',
    schema: 'JSONRPCResultResponse',
    value: { ...resultResponse(), error: { code: 1, message: 'm' } },
    expected: { instancePath: '/error', keyword: 'false schema' },
  },
  {
    rule: 'error code "x"',
    schema: 'JSONRPCMessage',
    value: { ...errorResponse(), error: { code: 'x', message: 'm' } },
    expected: { instancePath: '/error/code', keyword: 'type', params: { type: 'integer' } },
  },
  {
    rule: 'error code 1.5',
    schema: 'JSONRPCErrorResponse',
    value: { ...errorResponse(), error: { code: 1.5, message: 'm' } },
    expected: { instancePath: '/error/code', keyword: 'type' },
  },
  {
    rule: 'error without message',
    schema: 'JSONRPCMessage',
    value: { ...errorResponse(), error: { code: -32603 } },
    expected: { instancePath: '/error', keyword: 'required', params: { missingProperty: 'message' } },
  },
  {
    rule: 'request id null',
    schema: 'JSONRPCMessage',
    value: { jsonrpc: '2.0', id: null, method: 'tools/list' },
    expected: { instancePath: '/id', keyword: 'type' },
  },
  {
    rule: 'request method not a string',
    schema: 'JSONRPCRequest',
    value: { jsonrpc: '2.0', id: 1, method: 3 },
    expected: { instancePath: '/method', keyword: 'type' },
  },
  {
    rule: 'notification params an array',
    schema: 'JSONRPCMessage',
    value: { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: [] },
    expected: { instancePath: '/params', keyword: 'type' },
  },
  {
    rule: 'a batch',
    schema: 'JSONRPCMessage',
    value: [resultResponse()],
    expected: { instancePath: '', keyword: 'type', params: { type: 'object' } },
  },
];

const MRTR_DISCOVERY_AND_ERROR_CASES: Case[] = [
  {
    rule: 'InputRequiredResult with neither inputRequests nor requestState',
    schema: 'InputRequiredResult',
    value: { resultType: 'input_required' },
    expected: { instancePath: '', keyword: 'anyOf' },
  },
  {
    rule: 'InputRequiredResult with resultType complete',
    schema: 'InputRequiredResult',
    value: { resultType: 'complete', requestState: 's' },
    expected: { instancePath: '/resultType', keyword: 'const' },
  },
  {
    rule: 'InputRequiredResult requestState not a string',
    schema: 'InputRequiredResult',
    value: { resultType: 'input_required', requestState: { a: 1 } },
    expected: { instancePath: '/requestState', keyword: 'type' },
  },
  {
    rule: 'input request without method',
    schema: 'InputRequiredResult',
    value: { resultType: 'input_required', inputRequests: { login: { params: {} } } },
    expected: { instancePath: '/inputRequests/login', keyword: 'required', params: { missingProperty: 'method' } },
  },
  {
    rule: 'DiscoverResult supportedVersions empty',
    schema: 'DiscoverResult',
    value: { ...discoverResult(), supportedVersions: [] },
    expected: { instancePath: '/supportedVersions', keyword: 'minItems' },
  },
  {
    rule: 'DiscoverResult without capabilities',
    schema: 'DiscoverResult',
    value: variant(discoverResult, (r) => delete (r as Partial<typeof r>).capabilities),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'capabilities' } },
  },
  {
    rule: 'DiscoverResult without ttlMs',
    schema: 'DiscoverResult',
    value: variant(discoverResult, (r) => delete (r as Partial<typeof r>).ttlMs),
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'ttlMs' } },
  },
  {
    rule: 'tools.listChanged not a boolean',
    schema: 'DiscoverResult',
    value: { ...discoverResult(), capabilities: { tools: { listChanged: 'yes' } } },
    expected: { instancePath: '/capabilities/tools/listChanged', keyword: 'type' },
  },
  {
    rule: 'instructions not a string',
    schema: 'DiscoverResult',
    value: { ...discoverResult(), instructions: ['x'] },
    expected: { instancePath: '/instructions', keyword: 'type' },
  },
  {
    rule: 'extension settings not an object',
    schema: 'ServerCapabilities',
    value: { extensions: { 'io.modelcontextprotocol/tasks': true } },
    expected: { instancePath: '/extensions/io.modelcontextprotocol~1tasks', keyword: 'type' },
  },
  {
    rule: 'Implementation without version',
    schema: 'Implementation',
    value: { name: 'srv' },
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'version' } },
  },
  {
    rule: 'Implementation websiteUrl not a URI',
    schema: 'Implementation',
    value: { name: 'srv', version: '1', websiteUrl: 'example dot com' },
    expected: { instancePath: '/websiteUrl', keyword: 'format' },
  },
  {
    rule: 'UnsupportedProtocolVersionError with the pre-release code -32004',
    schema: 'UnsupportedProtocolVersionError',
    value: { jsonrpc: '2.0', id: 1, error: { code: -32004, message: 'm', data: { supported: [], requested: 'x' } } },
    expected: { instancePath: '/error/code', keyword: 'const', params: { allowedValue: -32022 } },
  },
  {
    rule: 'UnsupportedProtocolVersionError without data.supported',
    schema: 'UnsupportedProtocolVersionError',
    value: { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'm', data: { requested: 'x' } } },
    expected: { instancePath: '/error/data', keyword: 'required', params: { missingProperty: 'supported' } },
  },
  {
    rule: 'UnsupportedProtocolVersionError error object without data',
    schema: 'UnsupportedProtocolVersionError',
    value: { code: -32022, message: 'm' },
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'data' } },
  },
  {
    rule: 'MissingRequiredClientCapabilityError without requiredCapabilities',
    schema: 'MissingRequiredClientCapabilityError',
    value: { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'm', data: {} } },
    expected: {
      instancePath: '/error/data',
      keyword: 'required',
      params: { missingProperty: 'requiredCapabilities' },
    },
  },
  {
    rule: 'HeaderMismatchError with the pre-release code -32001',
    schema: 'HeaderMismatchError',
    value: { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'm' } },
    expected: { instancePath: '/error/code', keyword: 'const', params: { allowedValue: -32020 } },
  },
  {
    rule: 'HeaderMismatchError response with jsonrpc "1.0"',
    schema: 'HeaderMismatchError',
    value: { jsonrpc: '1.0', error: { code: -32020, message: 'm' } },
    expected: { instancePath: '/jsonrpc', keyword: 'const' },
  },
  {
    rule: 'InvalidParamsError with -32603',
    schema: 'InvalidParamsError',
    value: { code: -32603, message: 'Internal error' },
    expected: { instancePath: '/code', keyword: 'const', params: { allowedValue: -32602 } },
  },
  {
    rule: 'MethodNotFoundError without message',
    schema: 'MethodNotFoundError',
    value: { code: -32601 },
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'message' } },
  },
];

describe.each([
  ['tools/list result', LIST_TOOLS_CASES],
  ['Tool', TOOL_CASES],
  ['tools/call result and content blocks', CALL_TOOL_CASES],
  ['JSON-RPC envelope', ENVELOPE_CASES],
  ['input-required, discovery and error objects', MRTR_DISCOVERY_AND_ERROR_CASES],
])('invalid %s variants fail on 2026-07-28', (_group, cases) => {
  it.each(cases.map((c) => [c.rule, c] as const))('%s', (_rule, { schema, value, expected }) => {
    expectIssue(validateWire(schema, WIRE, value), expected);
  });
});

describe('issue quality', () => {
  it('a bad image block reports its own member, not a bare union failure', () => {
    const issues = validateWire('CallToolResult', WIRE, withBlock(image({ mimeType: 5 })));
    expect(issues.map((issue) => [issue.instancePath, issue.keyword])).toEqual([['/content/0/mimeType', 'type']]);
  });

  it('a malformed error response is judged as an error response only', () => {
    const issues = validateWire('JSONRPCMessage', WIRE, { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'm' } });
    expect(issues.map((issue) => [issue.instancePath, issue.keyword])).toEqual([['/error/code', 'type']]);
  });

  it('a non-object message reports a single type issue', () => {
    const issues = validateWire('JSONRPCMessage', WIRE, 'hello');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ instancePath: '', keyword: 'type' });
  });

  it('reports every fault at once (allErrors)', () => {
    const value = { ...listToolsResult(), ttlMs: -5, cacheScope: 'shared' };
    const paths = validateWire('ListToolsResult', WIRE, value).map((issue) => issue.instancePath);
    expect(paths).toEqual(expect.arrayContaining(['/ttlMs', '/cacheScope']));
  });

  it('carries the ajv message and schema path', () => {
    const [issue] = validateWire('ListToolsResult', WIRE, { ...listToolsResult(), ttlMs: -1 });
    expect(issue?.message).toBe('must be >= 0');
    expect(issue?.schemaPath).toBe('#/properties/ttlMs/minimum');
  });
});

describe('values the spec allows', () => {
  it.each([
    ['structuredContent null', { ...callToolResult(), structuredContent: null }],
    ['structuredContent an array', { ...callToolResult(), structuredContent: [1, 2] }],
    ['structuredContent a string', { ...callToolResult(), structuredContent: 'x' }],
    ['empty content', { ...callToolResult(), content: [] }],
    ['unknown extra members', { ...callToolResult(), vendorField: 1 }],
    ['empty base64 data', withBlock(image({ data: '' }))],
    // schema.json gives lastModified no format (ISO 8601 is a lower-case "should" in its description).
    [
      'a lastModified that is not an RFC 3339 date-time',
      withBlock({ type: 'text', text: 't', annotations: { lastModified: '2025-01-12' } }),
    ],
  ])('CallToolResult with %s is valid', (_label, value) => {
    expect(validateWire('CallToolResult', WIRE, value)).toEqual([]);
  });

  it.each([
    ['array outputSchema', { ...tool(), outputSchema: { type: 'array', items: { type: 'string' } } }],
    ['composition in inputSchema', { ...tool(), inputSchema: { type: 'object', oneOf: [{ required: ['a'] }] } }],
    [
      'draft-07 $schema',
      { ...tool(), inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } },
    ],
    ['a name outside the recommended charset (SHOULD only)', { ...tool(), name: 'has spaces, commas' }],
  ])('Tool with %s is valid', (_label, value) => {
    expect(validateWire('Tool', WIRE, value)).toEqual([]);
  });

  it.each([
    ['a null id', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }],
    ['no id', { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data: [1] } }],
  ])('error response with %s is valid', (_label, value) => {
    expect(validateWire('JSONRPCMessage', WIRE, value)).toEqual([]);
  });

  it('ttlMs 0 and a string request id are valid', () => {
    expect(validateWire('ListToolsResult', WIRE, { ...listToolsResult(), ttlMs: 0 })).toEqual([]);
    expect(validateWire('JSONRPCMessage', WIRE, { jsonrpc: '2.0', id: 'x', method: 'tools/list' })).toEqual([]);
  });

  it('unknown capability keys are allowed', () => {
    expect(validateWire('ServerCapabilities', WIRE, { tools: {}, vendorThing: { on: true } })).toEqual([]);
  });
});
