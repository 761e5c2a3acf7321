import { describe, expect, it } from 'vitest';
import { hasWireSchema, validateWire, type WireSchemaName } from './validator.js';

const EARLIER = '2025-11-25';
const LATEST = '2026-07-28';

const earlierTool = () => ({
  name: 'get_weather',
  title: 'Weather',
  inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  outputSchema: { type: 'object', properties: { temperature: { type: 'number' } } },
  execution: { taskSupport: 'optional' },
});

const earlierListToolsResult = () => ({ tools: [earlierTool()], nextCursor: 'page-2' });

/** Shape of the InitializeResult in 2025-11-25 basic/lifecycle. */
const initializeResult = () => ({
  protocolVersion: '2025-11-25',
  capabilities: {
    logging: {},
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    tools: { listChanged: true },
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  },
  serverInfo: {
    name: 'ExampleServer',
    title: 'Example Server Display Name',
    version: '1.0.0',
    description: 'An example MCP server providing tools and resources',
    icons: [{ src: 'https://example.com/server-icon.svg', mimeType: 'image/svg+xml', sizes: ['any'] }],
    websiteUrl: 'https://example.com/server',
  },
  instructions: 'Optional instructions for the client',
});

describe('2025-11-25 results without the 2026 additions', () => {
  it('a tools/list result without resultType, ttlMs or cacheScope is valid on the legacy wire', () => {
    expect(validateWire('ListToolsResult', EARLIER, earlierListToolsResult())).toEqual([]);
  });

  it('the same result is invalid on 2026-07-28', () => {
    const missing = validateWire('ListToolsResult', LATEST, earlierListToolsResult())
      .filter((issue) => issue.keyword === 'required' && issue.instancePath === '')
      .map((issue) => issue.params.missingProperty);
    expect(missing).toEqual(expect.arrayContaining(['resultType', 'ttlMs', 'cacheScope']));
  });

  it('a tools/call result without resultType is valid on the legacy wire', () => {
    const result = { content: [{ type: 'text', text: '{"t":1}' }], structuredContent: { t: 1 }, isError: false };
    expect(validateWire('CallToolResult', EARLIER, result)).toEqual([]);
    expect(validateWire('CallToolResult', LATEST, result)).toContainEqual(
      expect.objectContaining({ instancePath: '', keyword: 'required', params: { missingProperty: 'resultType' } }),
    );
  });

  it('a tools/call result without content is invalid on the legacy wire', () => {
    expect(validateWire('CallToolResult', EARLIER, { structuredContent: {} })).toContainEqual(
      expect.objectContaining({ instancePath: '', keyword: 'required', params: { missingProperty: 'content' } }),
    );
  });

  it('a JSON-RPC response envelope is judged the same way on both wires', () => {
    const message = { jsonrpc: '2.0', id: 1, result: earlierListToolsResult() };
    expect(validateWire('JSONRPCMessage', EARLIER, message)).toEqual([]);
    expect(validateWire('JSONRPCMessage', EARLIER, { ...message, id: null })).toContainEqual(
      expect.objectContaining({ instancePath: '/id', keyword: 'type' }),
    );
  });
});

describe('2025-11-25 rules that 2026-07-28 relaxed', () => {
  it('structuredContent must be an object on the legacy wire only', () => {
    const result = { content: [], structuredContent: [1, 2] };
    expect(validateWire('CallToolResult', EARLIER, result)).toContainEqual(
      expect.objectContaining({ instancePath: '/structuredContent', keyword: 'type' }),
    );
    expect(validateWire('CallToolResult', LATEST, { ...result, resultType: 'complete' })).toEqual([]);
  });

  it('outputSchema root must be type object on the legacy wire only', () => {
    const tool = { ...earlierTool(), outputSchema: { type: 'array', items: { type: 'string' } } };
    expect(validateWire('Tool', EARLIER, tool)).toContainEqual(
      expect.objectContaining({ instancePath: '/outputSchema/type', keyword: 'const' }),
    );
    expect(validateWire('Tool', LATEST, tool)).toEqual([]);
  });

  it('inputSchema.properties must map names to schema objects on the legacy wire', () => {
    const tool = { ...earlierTool(), inputSchema: { type: 'object', properties: { a: 'string' } } };
    expect(validateWire('Tool', EARLIER, tool)).toContainEqual(
      expect.objectContaining({ instancePath: '/inputSchema/properties/a', keyword: 'type' }),
    );
  });

  it('execution.taskSupport is checked on the legacy wire', () => {
    const tool = { ...earlierTool(), execution: { taskSupport: 'sometimes' } };
    expect(validateWire('Tool', EARLIER, tool)).toContainEqual(
      expect.objectContaining({ instancePath: '/execution/taskSupport', keyword: 'enum' }),
    );
  });

  it('inputSchema of type string is invalid on both wires', () => {
    const tool = { ...earlierTool(), inputSchema: { type: 'string' } };
    for (const wire of [EARLIER, LATEST] as const) {
      expect(validateWire('Tool', wire, tool)).toContainEqual(
        expect.objectContaining({ instancePath: '/inputSchema/type', keyword: 'const' }),
      );
    }
  });
});

describe('InitializeResult (2025-11-25 only)', () => {
  it('the lifecycle example is valid', () => {
    expect(validateWire('InitializeResult', EARLIER, initializeResult())).toEqual([]);
  });

  it('a minimal result is valid', () => {
    const minimal = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '0' } };
    expect(validateWire('InitializeResult', EARLIER, minimal)).toEqual([]);
  });

  it.each([
    ['without serverInfo', { serverInfo: undefined }, '', 'required'],
    ['without protocolVersion', { protocolVersion: undefined }, '', 'required'],
    ['with a numeric protocolVersion', { protocolVersion: 20251125 }, '/protocolVersion', 'type'],
    ['with serverInfo lacking name', { serverInfo: { version: '1' } }, '/serverInfo', 'required'],
    [
      'with tools.listChanged "true"',
      { capabilities: { tools: { listChanged: 'true' } } },
      '/capabilities/tools/listChanged',
      'type',
    ],
    ['with instructions not a string', { instructions: 1 }, '/instructions', 'type'],
    ['with capabilities an array', { capabilities: [] }, '/capabilities', 'type'],
  ])('is invalid %s', (_label, changes, instancePath, keyword) => {
    const value = JSON.parse(JSON.stringify({ ...initializeResult(), ...changes })) as unknown;
    expect(validateWire('InitializeResult', EARLIER, value)).toContainEqual(
      expect.objectContaining({ instancePath, keyword }),
    );
  });
});

describe('names that exist on only one wire', () => {
  const onlyCurrent: WireSchemaName[] = [
    'DiscoverResult',
    'InputRequiredResult',
    'UnsupportedProtocolVersionError',
    'MissingRequiredClientCapabilityError',
    'HeaderMismatchError',
  ];

  it.each(onlyCurrent)('%s is absent on 2025-11-25 and using it throws', (name) => {
    expect(hasWireSchema(name, LATEST)).toBe(true);
    expect(hasWireSchema(name, EARLIER)).toBe(false);
    expect(() => validateWire(name, EARLIER, {})).toThrow(/2025-11-25/);
  });

  it('InitializeResult is absent on 2026-07-28 and using it throws', () => {
    expect(hasWireSchema('InitializeResult', EARLIER)).toBe(true);
    expect(hasWireSchema('InitializeResult', LATEST)).toBe(false);
    expect(() => validateWire('InitializeResult', LATEST, initializeResult())).toThrow(/InitializeResult/);
  });
});
