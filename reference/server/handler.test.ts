import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { handleMessage, handleText } from './handler.js';
import type { HandlerContext, Reply } from './reply.js';
import type { JsonRpcId } from '../../src/core/jsonrpc.js';
import { INITIALIZE_REVISIONS } from '../../src/core/revision.js';
import { REVISION_RULES, type InitializeRevision } from './revisions.js';
import { initializeRequest, legacyRpc, meta, rpc, stdioContext } from './test-support.js';
import { TOOL_DEFINITIONS } from './tools.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Message = Record<string, any>;

function sent(reply: Reply): { messages: Message[]; status: number } {
  if (reply.kind !== 'send') throw new Error(`expected a response, got ${reply.kind}`);
  return { messages: reply.messages as Message[], status: reply.status };
}

function respond(ctx: HandlerContext, message: unknown): Message {
  const { messages } = sent(handleMessage(message, ctx));
  return messages[messages.length - 1] as Message;
}

function listAll(ctx: HandlerContext): Message[] {
  const pages: Message[] = [];
  let cursor: string | undefined;
  do {
    const response = respond(ctx, rpc(`list-${pages.length}`, 'tools/list', cursor === undefined ? {} : { cursor }));
    pages.push(response.result);
    cursor = response.result.nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return pages;
}

const SERVER_INFO = { name: 'mcp-tools-conformance-reference-server', version: '0.1.0' };

describe('server/discover', () => {
  it('answers the full DiscoverResult shape', () => {
    const response = respond(stdioContext(), rpc('d1', 'server/discover'));
    expect(response).toMatchObject({ jsonrpc: '2.0', id: 'd1' });
    expect(response.result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true } },
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      instructions: expect.any(String),
      ttlMs: 60000,
      cacheScope: 'public',
    });
  });

  it('rejects the legacy initialize handshake naming the supported version', () => {
    const reply = sent(
      handleMessage(
        { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
        stdioContext(),
      ),
    );
    expect(reply.status).toBe(404);
    expect(reply.messages[0]?.error.code).toBe(-32601);
    expect(reply.messages[0]?.error.message).toContain('2026-07-28');
  });
});

describe('request validation', () => {
  it.each([
    ['no params', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['no _meta', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }],
    [
      'no protocolVersion',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
    ],
    [
      'protocolVersion not a string',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': 20260728 } },
      },
    ],
    [
      'no clientCapabilities',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
          name: 'echo',
          arguments: { text: 'x' },
        },
      },
    ],
    [
      'clientCapabilities not an object',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/clientCapabilities': [] } },
      },
    ],
  ])('answers -32602 with HTTP status 400 for %s', (_case, message) => {
    const reply = sent(handleMessage(message, stdioContext()));
    expect(reply.status).toBe(400);
    expect(reply.messages).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.any(String) } }]);
  });

  it('answers -32022 listing the supported versions for another protocol version', () => {
    const message = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }) },
    };
    const reply = sent(handleMessage(message, stdioContext()));
    expect(reply.status).toBe(400);
    expect(reply.messages[0]?.error).toEqual({
      code: -32022,
      message: expect.any(String),
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
  });

  it('answers -32700 with a null id for invalid JSON', () => {
    const reply = sent(handleText('{"jsonrpc":"2.0","id":1,', stdioContext()));
    expect(reply.messages[0]).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it.each([
    ['a batch', [rpc(1, 'tools/list')]],
    ['a wrong jsonrpc version', { ...rpc(1, 'tools/list'), jsonrpc: '1.0' }],
    ['a null id', { ...rpc(1, 'tools/list'), id: null }],
    ['a fractional id', { ...rpc(1, 'tools/list'), id: 1.5 }],
    ['a missing method', { jsonrpc: '2.0', id: 1 }],
  ])('answers -32600 for %s', (_case, message) => {
    expect(respond(stdioContext(), message).error.code).toBe(-32600);
  });

  it('answers -32601 (HTTP 404) for unknown methods', () => {
    const reply = sent(handleMessage(rpc(3, 'prompts/list'), stdioContext()));
    expect(reply.status).toBe(404);
    expect(reply.messages[0]?.error.code).toBe(-32601);
  });

  it('does not answer notifications', () => {
    const reply = handleMessage(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      stdioContext(),
    );
    expect(reply).toEqual({ kind: 'none' });
  });
});

describe('tools/list', () => {
  it('walks three pages of four tools with cache hints on every page, each tool once', () => {
    const pages = listAll(stdioContext());
    expect(pages.map((page) => page.tools.length)).toEqual([4, 4, 3]);
    for (const page of pages) {
      expect(page).toMatchObject({
        resultType: 'complete',
        ttlMs: 60000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      });
    }
    const names = pages.flatMap((page) => page.tools.map((tool: Message) => tool.name));
    expect(names).toEqual(TOOL_DEFINITIONS.map((tool) => tool.name));
    expect(new Set(names).size).toBe(11);
    expect(names).toContain('confirm_action');
  });

  it('is the same for every connection and every request', () => {
    expect(listAll(stdioContext())).toEqual(listAll(stdioContext()));
  });

  it.each([
    '',
    'garbage',
    'dG9vbHMtcGFnZTo0=',
    Buffer.from('tools-page:3').toString('base64url'),
    Buffer.from('tools-page:40').toString('base64url'),
  ])('rejects the cursor %j with -32602', (cursor) => {
    expect(respond(stdioContext(), rpc(1, 'tools/list', { cursor })).error.code).toBe(-32602);
  });

  it('rejects a cursor that is not a string', () => {
    expect(respond(stdioContext(), rpc(1, 'tools/list', { cursor: 4 })).error.code).toBe(-32602);
  });

  it('publishes valid 2020-12 input and output schemas', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const tool of TOOL_DEFINITIONS) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema) expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow();
      expect(tool.title && tool.description && tool.annotations, tool.name).toBeTruthy();
    }
  });
});

describe('tools/call', () => {
  const call = (ctx: HandlerContext, name: string, args: unknown, extra: Record<string, unknown> = {}) =>
    respond(ctx, rpc(`call-${name}`, 'tools/call', { name, arguments: args, ...extra }));

  it('returns structured content that conforms to the output schema, mirrored as text', () => {
    const ajv = new Ajv2020({ strict: false });
    const cases: [string, Record<string, unknown>][] = [
      ['get_weather', { location: 'Berlin', units: 'imperial' }],
      ['add_numbers', { a: 40, b: 2 }],
      ['list_items', {}],
    ];
    for (const [name, args] of cases) {
      const result = call(stdioContext(), name, args).result;
      const definition = TOOL_DEFINITIONS.find((tool) => tool.name === name)!;
      expect(result.resultType).toBe('complete');
      expect(result.isError).toBeUndefined();
      expect(ajv.validate(definition.outputSchema!, result.structuredContent), `${name}: ${ajv.errorsText()}`).toBe(
        true,
      );
      expect(result.content).toContainEqual({ type: 'text', text: JSON.stringify(result.structuredContent) });
    }
    expect(call(stdioContext(), 'add_numbers', { a: 40, b: 2 }).result.structuredContent).toEqual({ sum: 42 });
    expect(Array.isArray(call(stdioContext(), 'list_items', {}).result.structuredContent)).toBe(true);
  });

  it('runs the other tools', () => {
    const ctx = stdioContext();
    expect(call(ctx, 'echo', { text: 'hello' }).result.content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(call(ctx, 'search_docs', { query: 'regions', region: 'eu' }).result.content[0].text).toContain('region eu');
    expect(Number.isNaN(Date.parse(call(ctx, 'get_time', {}).result.content[0].text))).toBe(false);
    expect(call(ctx, 'get_logo', {}).result.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(call(ctx, 'create_note', { title: 'shopping' }).result.content[0].text).toMatch(/^created note note-1/);
    expect(call(ctx, 'delete_note', { id: 'note-1' }).result.isError).toBeUndefined();
    expect(call(ctx, 'delete_note', { id: 'note-1' }).result).toMatchObject({ resultType: 'complete', isError: true });
  });

  it.each([
    ['an unknown tool', { name: 'no_such_tool', arguments: {} }],
    ['a tool name in the wrong case', { name: 'ECHO', arguments: { text: 'x' } }],
    ['a missing name', { arguments: {} }],
    ['a numeric name', { name: 3, arguments: {} }],
    ['array arguments', { name: 'echo', arguments: ['x'] }],
    ['null arguments', { name: 'echo', arguments: null }],
    ['a non-string requestState', { name: 'echo', arguments: { text: 'x' }, requestState: 5 }],
    ['non-object inputResponses', { name: 'echo', arguments: { text: 'x' }, inputResponses: 'yes' }],
  ])('answers -32602 for %s', (_case, params) => {
    const reply = sent(handleMessage(rpc(9, 'tools/call', params), stdioContext()));
    expect(reply.messages[0]?.error.code).toBe(-32602);
    expect(reply.status).toBe(200);
  });

  it.each([
    ['get_weather', {}],
    ['get_weather', { location: 'Oslo', units: 'kelvin' }],
    ['add_numbers', { a: 1, b: 2.5 }],
    ['search_docs', { query: 'x', limit: 51 }],
    ['get_time', { unexpected: true }],
  ])('reports %s arguments %j that break the input schema as an isError result', (name, args) => {
    const result = call(stdioContext(), name, args).result;
    expect(result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining(name) }],
    });
  });

  it('sends one progress notification before the response when a progressToken is given', () => {
    const message = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { _meta: meta({}, { progressToken: 'p-1' }), name: 'echo', arguments: { text: 'x' } },
    };
    const reply = handleMessage(message, stdioContext());
    expect(reply).toMatchObject({ kind: 'send', stream: true });
    const { messages } = sent(reply);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p-1', progress: 1 },
    });
    expect(messages[0]).not.toHaveProperty('id');
    expect(messages[1]).toMatchObject({ id: 5, result: { resultType: 'complete' } });
  });
});

describe('confirm_action (multi round-trip)', () => {
  const withElicitation = { elicitation: { form: {} } };
  const callConfirm = (
    ctx: HandlerContext,
    id: string,
    capabilities: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) =>
    respond(ctx, {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { _meta: meta(capabilities), name: 'confirm_action', arguments: { action: 'deploy' }, ...extra },
    });

  it('asks for input, then completes the retry that carries a new id, the answer and the echoed state', () => {
    const ctx = stdioContext();
    const first = callConfirm(ctx, 'c-1', withElicitation).result;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: expect.any(String),
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          },
        },
      },
      requestState: expect.any(String),
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    });
    expect(first).not.toHaveProperty('ttlMs');
    expect(first).not.toHaveProperty('cacheScope');

    const retry = callConfirm(ctx, 'c-2', withElicitation, {
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(retry.id).toBe('c-2');
    expect(retry.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: expect.stringContaining('deploy') }],
    });
    expect(retry.result.isError).toBeUndefined();
  });

  it('accepts the empty elicitation capability as form mode', () => {
    expect(callConfirm(stdioContext(), 'c-1', { elicitation: {} }).result.resultType).toBe('input_required');
  });

  it.each([{}, { elicitation: { url: {} } }, { sampling: {} }])(
    'answers -32021 (HTTP 400) without form elicitation: %j',
    (capabilities) => {
      const ctx = stdioContext();
      const reply = sent(
        handleMessage(
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { _meta: meta(capabilities), name: 'confirm_action', arguments: { action: 'x' } },
          },
          ctx,
        ),
      );
      expect(reply.status).toBe(400);
      expect(reply.messages[0]?.error).toEqual({
        code: -32021,
        message: expect.any(String),
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
    },
  );

  it('rejects a tampered or foreign requestState with -32602', () => {
    const ctx = stdioContext();
    const state: string = callConfirm(ctx, 'c-1', withElicitation).result.requestState;
    const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const answer = { confirm: { action: 'accept', content: { ok: true } } };
    expect(
      callConfirm(ctx, 'c-2', withElicitation, { inputResponses: answer, requestState: tampered }).error.code,
    ).toBe(-32602);
    expect(
      callConfirm(stdioContext(), 'c-3', withElicitation, { inputResponses: answer, requestState: state }).error.code,
    ).toBe(-32602);
    const otherArgs = respond(ctx, {
      jsonrpc: '2.0',
      id: 'c-4',
      method: 'tools/call',
      params: {
        _meta: meta(withElicitation),
        name: 'confirm_action',
        arguments: { action: 'other' },
        inputResponses: answer,
        requestState: state,
      },
    });
    expect(otherArgs.error.code).toBe(-32602);
  });

  it('asks again when the retry lacks the requested answer', () => {
    const ctx = stdioContext();
    const state: string = callConfirm(ctx, 'c-1', withElicitation).result.requestState;
    expect(
      callConfirm(ctx, 'c-2', withElicitation, { inputResponses: {}, requestState: state }).result.resultType,
    ).toBe('input_required');
  });

  it('completes without acting when the user declines', () => {
    const ctx = stdioContext();
    const state: string = callConfirm(ctx, 'c-1', withElicitation).result.requestState;
    const result = callConfirm(ctx, 'c-2', withElicitation, {
      inputResponses: { confirm: { action: 'decline' } },
      requestState: state,
    }).result;
    expect(result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: expect.stringContaining('not carried out') }],
    });
  });
});

describe('an initialize revision (--protocol-version)', () => {
  const initialize = (version: string, id: JsonRpcId = 1) => initializeRequest(id, version, { roots: {} });

  it('answers initialize with the version offered when it speaks it (its own or an older one), else with its own', () => {
    const agreed = (own: InitializeRevision, offered: string) =>
      respond(stdioContext([], own), initialize(offered)).result.protocolVersion;
    expect(agreed('2025-11-25', '2025-11-25')).toBe('2025-11-25');
    expect(agreed('2025-11-25', '2025-06-18')).toBe('2025-06-18');
    expect(agreed('2025-11-25', '2024-11-05')).toBe('2024-11-05');
    expect(agreed('2025-11-25', '2026-07-28')).toBe('2025-11-25');
    expect(agreed('2025-11-25', '2099-01-01')).toBe('2025-11-25');
    expect(agreed('2025-03-26', '2025-11-25')).toBe('2025-03-26');
    expect(agreed('2025-03-26', '2024-11-05')).toBe('2024-11-05');
    expect(agreed('2024-11-05', '2025-06-18')).toBe('2024-11-05');
  });

  it.each(INITIALIZE_REVISIONS)(
    '%s: initialize, ping and notifications/initialized; no server/discover or subscriptions/listen',
    (revision) => {
      const ctx = stdioContext([], revision);
      expect(respond(ctx, initialize(revision)).result).toEqual({
        protocolVersion: revision,
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      });
      expect(handleMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, ctx)).toEqual({ kind: 'none' });
      expect(respond(ctx, legacyRpc(2, 'ping')).result).toEqual({});
      for (const method of ['server/discover', 'subscriptions/listen'])
        expect(respond(ctx, legacyRpc(3, method)).error).toMatchObject({ code: -32601 });
    },
  );

  it.each(INITIALIZE_REVISIONS)(
    '%s: lists the tools of the initialize revisions with the fields its schema.json has, results without the ' +
      '2026-07-28 fields',
    (revision) => {
      const ctx = stdioContext([], '2025-11-25');
      respond(ctx, initialize(revision));
      const listed: Message[] = [];
      let cursor: string | undefined;
      do {
        const result = respond(
          ctx,
          legacyRpc(`l${listed.length}`, 'tools/list', cursor === undefined ? undefined : { cursor }),
        ).result;
        expect(Object.keys(result).filter((key) => !['tools', 'nextCursor'].includes(key))).toEqual([]);
        listed.push(...result.tools);
        cursor = result.nextCursor;
      } while (cursor !== undefined);
      expect(listed.map((tool) => tool.name)).toEqual(
        TOOL_DEFINITIONS.map((tool) => tool.name).filter((name) => name !== 'list_items' && name !== 'confirm_action'),
      );
      const fields = new Set(listed.flatMap((tool) => Object.keys(tool)));
      expect([...fields].filter((field) => !REVISION_RULES[revision].toolFields.includes(field))).toEqual([]);
      expect(fields.has('annotations')).toBe(revision !== '2024-11-05');
      expect(fields.has('outputSchema') && fields.has('title')).toBe(revision >= '2025-06-18');
      expect(fields.has('icons')).toBe(revision === '2025-11-25');
      expect(respond(ctx, legacyRpc(6, 'tools/call', { name: 'list_items', arguments: {} })).error).toMatchObject({
        code: -32602,
        message: 'Unknown tool: list_items',
      });
    },
  );

  it.each(INITIALIZE_REVISIONS)(
    '%s: tool results as its schema.json has them; invalid arguments as its error handling says',
    (revision) => {
      const ctx = stdioContext([], '2025-11-25');
      respond(ctx, initialize(revision));
      const call = (id: number, name: string, args: unknown) =>
        respond(ctx, legacyRpc(id, 'tools/call', { name, arguments: args }));
      expect(call(1, 'echo', { text: 'hi' }).result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
      const sum = call(2, 'add_numbers', { a: 1, b: 2 }).result;
      expect(sum).toEqual({
        content: [{ type: 'text', text: '{"sum":3}' }],
        ...(revision >= '2025-06-18' ? { structuredContent: { sum: 3 } } : {}),
      });
      const invalid = call(3, 'add_numbers', { a: 'one', b: 2 });
      if (revision === '2025-11-25')
        expect(invalid.result).toMatchObject({
          isError: true,
          content: [{ type: 'text', text: expect.stringContaining('Invalid arguments for tool add_numbers') }],
        });
      else
        expect(invalid.error).toMatchObject({
          code: -32602,
          message: expect.stringContaining('Invalid arguments for tool add_numbers'),
        });
    },
  );
});

describe('JSON-RPC batches', () => {
  const session = (revision: InitializeRevision) => {
    const ctx = stdioContext([], revision);
    respond(ctx, initializeRequest(0, revision));
    return ctx;
  };

  it('2025-03-26 receives them: requests answered in order in one array, notifications answered by nothing', () => {
    const ctx = session('2025-03-26');
    const reply = handleMessage(
      [
        legacyRpc('a', 'ping'),
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone' } },
        legacyRpc('b', 'tools/list'),
      ],
      ctx,
    );
    expect(reply).toMatchObject({
      kind: 'batch',
      before: [],
      responses: [
        { jsonrpc: '2.0', id: 'a', result: {} },
        { jsonrpc: '2.0', id: 'b', result: { tools: expect.any(Array) } },
      ],
    });
    expect(handleMessage([{ jsonrpc: '2.0', method: 'notifications/initialized' }], ctx)).toEqual({
      kind: 'batch',
      before: [],
      responses: [],
    });
  });

  it('2025-03-26: an empty batch, an element that is no object, and initialize inside a batch are invalid requests', () => {
    const ctx = session('2025-03-26');
    expect(respond(ctx, [])).toMatchObject({ id: null, error: { code: -32600 } });
    const reply = handleMessage([42, initializeRequest('i', '2025-03-26'), legacyRpc('p', 'ping')], ctx);
    expect(reply).toMatchObject({
      kind: 'batch',
      responses: [
        { id: null, error: { code: -32600 } },
        {
          id: 'i',
          error: { code: -32600, message: expect.stringContaining('initialize must not be part of a batch') },
        },
        { id: 'p', result: {} },
      ],
    });
  });

  it.each(['2025-11-25', '2025-06-18', '2024-11-05'] as const)(
    '%s has none: a batch is one invalid request',
    (revision) => {
      expect(respond(session(revision), [legacyRpc('a', 'ping')])).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request: batches are not supported' },
      });
    },
  );

  it('2026-07-28 has none either', () => {
    expect(respond(stdioContext(), [rpc('a', 'tools/list')])).toMatchObject({ id: null, error: { code: -32600 } });
  });
});
