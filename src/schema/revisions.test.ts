import { describe, expect, it } from 'vitest';
import { compareRevisions, REVISIONS, type Revision } from '../core/revision.js';
import { hasWireSchema, validateWire, type WireSchemaName } from './validator.js';

const INITIALIZE_WIRES = REVISIONS.filter((wire) => wire !== '2026-07-28');
const from = (first: Revision) => INITIALIZE_WIRES.filter((wire) => compareRevisions(wire, first) >= 0);
const before = (first: Revision) => INITIALIZE_WIRES.filter((wire) => compareRevisions(wire, first) < 0);

interface Case {
  what: string;
  schema: WireSchemaName;
  value: unknown;
  /**
   * The initialize revisions whose schema.json accepts the value; on the others it breaks the rule named by `issue`.
   */
  validOn: readonly Revision[];
  issue: { instancePath: string; keyword: string };
  /**
   * The revisions compared, when the value means nothing before some revision (every initialize revision otherwise).
   */
  on?: readonly Revision[];
}

const tool = (extra: Record<string, unknown>) => ({
  tools: [{ name: 't', inputSchema: { type: 'object' }, ...extra }],
});
const call = (...content: unknown[]) => ({ content });
const initialize = (extra: Record<string, unknown>) => ({
  protocolVersion: '2024-11-05',
  capabilities: {},
  serverInfo: { name: 's', version: '1' },
  ...extra,
});
const AUDIO = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };
const batchResponse = [
  { jsonrpc: '2.0', id: 1, result: { tools: [] } },
  { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
];

const CASES: readonly Case[] = [
  {
    what: 'a batch of responses (JSON-RPC batches are in 2025-03-26 only)',
    schema: 'JSONRPCMessage',
    value: batchResponse,
    validOn: ['2025-03-26'],
    issue: { instancePath: '', keyword: 'type' },
  },
  {
    what: 'a batch of a request and a notification',
    schema: 'JSONRPCMessage',
    value: [
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ],
    validOn: ['2025-03-26'],
    issue: { instancePath: '', keyword: 'type' },
  },
  {
    what: 'an error response without an id (optional from 2025-11-25 on)',
    schema: 'JSONRPCMessage',
    value: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } },
    validOn: from('2025-11-25'),
    issue: { instancePath: '', keyword: 'required' },
  },
  {
    what: 'a progress token that is neither a string nor an integer (typed until 2025-11-25 made params any object)',
    schema: 'JSONRPCRequest',
    value: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: true } } },
    validOn: from('2025-11-25'),
    issue: { instancePath: '/params/_meta/progressToken', keyword: 'type' },
  },
  {
    what: 'an audio block (from 2025-03-26 on)',
    schema: 'CallToolResult',
    value: call(AUDIO),
    validOn: from('2025-03-26'),
    issue: { instancePath: '/content/0/type', keyword: 'enum' },
  },
  {
    what: 'a resource_link block (from 2025-06-18 on)',
    schema: 'CallToolResult',
    value: call({ type: 'resource_link', uri: 'file:///a.txt', name: 'a' }),
    validOn: from('2025-06-18'),
    issue: { instancePath: '/content/0/type', keyword: 'enum' },
  },
  {
    what: 'a resource link with a malformed icon (icons from 2025-11-25 on)',
    schema: 'CallToolResult',
    value: call({ type: 'resource_link', uri: 'file:///a.txt', name: 'a', icons: [{ src: 5 }] }),
    validOn: ['2025-06-18'],
    issue: { instancePath: '/content/0/icons/0/src', keyword: 'type' },
    on: from('2025-06-18'),
  },
  {
    what: 'a content block whose _meta is not an object (from 2025-06-18 on)',
    schema: 'CallToolResult',
    value: call({ type: 'text', text: 't', _meta: 5 }),
    validOn: before('2025-06-18'),
    issue: { instancePath: '/content/0/_meta', keyword: 'type' },
  },
  {
    what: 'annotations whose lastModified is not a string (from 2025-06-18 on)',
    schema: 'CallToolResult',
    value: call({ type: 'text', text: 't', annotations: { lastModified: 1 } }),
    validOn: before('2025-06-18'),
    issue: { instancePath: '/content/0/annotations/lastModified', keyword: 'type' },
  },
  {
    what:
      'structuredContent that is an array (an object from 2025-06-18 on; before, a member the schema does not ' +
      'name)',
    schema: 'CallToolResult',
    value: { ...call(), structuredContent: [1, 2] },
    validOn: before('2025-06-18'),
    issue: { instancePath: '/structuredContent', keyword: 'type' },
  },
  {
    what: 'a tool whose outputSchema is an array schema (from 2025-06-18 on, an object schema)',
    schema: 'ListToolsResult',
    value: tool({ outputSchema: { type: 'array' } }),
    validOn: before('2025-06-18'),
    issue: { instancePath: '/tools/0/outputSchema/type', keyword: 'const' },
  },
  {
    what: 'a tool whose title is not a string (from 2025-06-18 on)',
    schema: 'ListToolsResult',
    value: tool({ title: 42 }),
    validOn: before('2025-06-18'),
    issue: { instancePath: '/tools/0/title', keyword: 'type' },
  },
  {
    what: 'tool annotations with a non-boolean hint (from 2025-03-26 on)',
    schema: 'ListToolsResult',
    value: tool({ annotations: { readOnlyHint: 'yes' } }),
    validOn: ['2024-11-05'],
    issue: { instancePath: '/tools/0/annotations/readOnlyHint', keyword: 'type' },
  },
  {
    what: 'a tool execution with an unknown taskSupport (2025-11-25)',
    schema: 'ListToolsResult',
    value: tool({ execution: { taskSupport: 'sometimes' } }),
    validOn: before('2025-11-25'),
    issue: { instancePath: '/tools/0/execution/taskSupport', keyword: 'enum' },
  },
  {
    what: 'an input schema whose $schema is not a string (named from 2025-11-25 on)',
    schema: 'ListToolsResult',
    value: tool({ inputSchema: { type: 'object', $schema: 7 } }),
    validOn: before('2025-11-25'),
    issue: { instancePath: '/tools/0/inputSchema/$schema', keyword: 'type' },
  },
  {
    what: 'a completions capability that is not an object (from 2025-03-26 on)',
    schema: 'InitializeResult',
    value: initialize({ capabilities: { completions: true } }),
    validOn: ['2024-11-05'],
    issue: { instancePath: '/capabilities/completions', keyword: 'type' },
  },
  {
    what: 'a tasks capability that is not an object (2025-11-25)',
    schema: 'InitializeResult',
    value: initialize({ capabilities: { tasks: true } }),
    validOn: before('2025-11-25'),
    issue: { instancePath: '/capabilities/tasks', keyword: 'type' },
  },
  {
    what: 'a serverInfo whose title is not a string (from 2025-06-18 on)',
    schema: 'InitializeResult',
    value: initialize({ serverInfo: { name: 's', version: '1', title: 5 } }),
    validOn: before('2025-06-18'),
    issue: { instancePath: '/serverInfo/title', keyword: 'type' },
  },
  {
    what: 'a serverInfo whose websiteUrl is not a URI (from 2025-11-25 on)',
    schema: 'InitializeResult',
    value: initialize({ serverInfo: { name: 's', version: '1', websiteUrl: 'not a uri' } }),
    validOn: before('2025-11-25'),
    issue: { instancePath: '/serverInfo/websiteUrl', keyword: 'format' },
  },
];

describe('each initialize revision holds a value to the rules of its own schema.json', () => {
  for (const c of CASES) {
    it(c.what, () => {
      const wires = c.on ?? INITIALIZE_WIRES;
      const verdicts = wires.map((wire) => [wire, validateWire(c.schema, wire, c.value).length === 0]);
      expect(verdicts).toEqual(wires.map((wire) => [wire, c.validOn.includes(wire)]));
      for (const wire of wires.filter((w) => !c.validOn.includes(w))) {
        expect(validateWire(c.schema, wire, c.value), wire).toContainEqual(expect.objectContaining(c.issue));
      }
    });
  }
});

describe('JSON-RPC batches (2025-03-26)', () => {
  const WIRE = '2025-03-26';

  it('a response in a batch reports its own faults', () => {
    const batch = [batchResponse[0], { jsonrpc: '2.0', id: 2, error: { code: 'x', message: 'm' } }];
    expect(validateWire('JSONRPCMessage', WIRE, batch)).toEqual([
      expect.objectContaining({ instancePath: '/1/error/code', keyword: 'type' }),
    ]);
  });

  it('a batch mixing a request and a response is invalid, an empty one is not (schema.json sets no minimum)', () => {
    const mixed = [{ jsonrpc: '2.0', id: 1, method: 'ping' }, batchResponse[0]];
    expect(validateWire('JSONRPCMessage', WIRE, mixed)).toContainEqual(
      expect.objectContaining({ instancePath: '/1', keyword: 'required' }),
    );
    expect(validateWire('JSONRPCMessage', WIRE, [])).toEqual([]);
  });

  it('JSONRPCBatchResponse exists on 2025-03-26 only and holds responses only', () => {
    expect(REVISIONS.filter((wire) => hasWireSchema('JSONRPCBatchResponse', wire))).toEqual([WIRE]);
    expect(validateWire('JSONRPCBatchResponse', WIRE, batchResponse)).toEqual([]);
    expect(validateWire('JSONRPCBatchResponse', WIRE, [{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toContainEqual(
      expect.objectContaining({ instancePath: '/0', keyword: 'required', params: { missingProperty: 'result' } }),
    );
  });
});

describe('what every revision keeps', () => {
  it.each(REVISIONS)('a JSON-RPC error answering an unreadable request has a null id (%s)', (wire) => {
    expect(
      validateWire('JSONRPCMessage', wire, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error' },
      }),
    ).toEqual([]);
  });

  it.each(INITIALIZE_WIRES)('a tool without an inputSchema breaks Tool.required (%s)', (wire) => {
    expect(validateWire('ListToolsResult', wire, { tools: [{ name: 't' }] })).toContainEqual(
      expect.objectContaining({
        instancePath: '/tools/0',
        keyword: 'required',
        params: { missingProperty: 'inputSchema' },
      }),
    );
  });
});
