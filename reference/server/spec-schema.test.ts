import { sharedPath } from '../../test/helpers/shared.js';
import { existsSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { handleMessage } from './handler.js';
import type { HandlerContext } from './reply.js';
import { INITIALIZE_REVISIONS } from '../../src/core/revision.js';
import { REVISION_RULES, type InitializeRevision } from './revisions.js';
import { initializeRequest, legacyRpc, meta, rpc, stdioContext } from './test-support.js';

const SCHEMA_PATH = sharedPath('spec/2026-07-28/schema.json');
const haveSchema = existsSync(SCHEMA_PATH);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Message = Record<string, any>;

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  addFormats(ajv);
  ajv.addSchema(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')), 'mcp');
  return (definition: string, value: unknown): string | undefined => {
    const validate = ajv.getSchema(`mcp#/$defs/${definition}`);
    if (!validate) throw new Error(`no $defs/${definition}`);
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}

function respond(message: unknown, defects: Parameters<typeof stdioContext>[0] = []): Message {
  const reply = handleMessage(message, stdioContext(defects));
  if (reply.kind !== 'send') throw new Error(reply.kind);
  return reply.messages[reply.messages.length - 1] as Message;
}

describe.skipIf(!haveSchema)(`results validate against ${SCHEMA_PATH}`, () => {
  const check = haveSchema ? validator() : () => 'schema missing';

  it('server/discover', () => {
    const response = respond(rpc(1, 'server/discover'));
    expect(check('DiscoverResultResponse', response)).toBeUndefined();
    expect(check('DiscoverResult', response.result)).toBeUndefined();
  });

  it('every tools/list page', () => {
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = respond(rpc(pages, 'tools/list', cursor === undefined ? {} : { cursor }));
      expect(check('ListToolsResultResponse', response)).toBeUndefined();
      expect(check('ListToolsResult', response.result)).toBeUndefined();
      cursor = response.result.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
  });

  it('tools/call complete and input_required results', () => {
    for (const [name, args] of [
      ['get_weather', { location: 'Rome' }],
      ['get_logo', {}],
      ['echo', {}],
      ['list_items', {}],
    ] as const) {
      const result = respond(rpc(1, 'tools/call', { name, arguments: args })).result;
      expect(check('CallToolResult', result), name).toBeUndefined();
    }
    const message = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { _meta: meta({ elicitation: {} }), name: 'confirm_action', arguments: { action: 'x' } },
    };
    expect(check('InputRequiredResult', respond(message).result)).toBeUndefined();
    expect(check('ElicitRequest', respond(message).result.inputRequests.confirm)).toBeUndefined();
  });

  it('error responses', () => {
    expect(check('JSONRPCErrorResponse', respond(rpc(1, 'nope')))).toBeUndefined();
    const badVersion = respond({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' }) },
    });
    expect(check('UnsupportedProtocolVersionError', badVersion)).toBeUndefined();
    const missingCapability = respond(rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } }));
    expect(check('MissingRequiredClientCapabilityError', missingCapability)).toBeUndefined();
  });

  it('the bad-instructions defect makes the discover result schema-invalid', () => {
    expect(check('DiscoverResult', respond(rpc(1, 'server/discover'), ['bad-instructions']).result)).toContain(
      'instructions',
    );
  });
});

/** The content block definition of each `type`, as every revision's schema.json names it. */
const CONTENT_DEFINITIONS: Record<string, string> = {
  text: 'TextContent',
  image: 'ImageContent',
  audio: 'AudioContent',
  resource: 'EmbeddedResource',
  resource_link: 'ResourceLink',
};

/** A revision's schema.json: a validator of its definitions, and the property names each definition has. */
function revisionSchema(revision: InitializeRevision) {
  const document = JSON.parse(readFileSync(sharedPath(`spec/${revision}/schema.json`), 'utf8')) as Message;
  const draft07 = document.definitions !== undefined;
  const definitions = (draft07 ? document.definitions : document.$defs) as Record<
    string,
    { properties?: Record<string, unknown> }
  >;
  const ajv = draft07 ? new Ajv({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  addFormats(ajv);
  ajv.addSchema(document, 'mcp');
  return {
    check(definition: string, value: unknown): string | undefined {
      const validate = ajv.getSchema(`mcp#/${draft07 ? 'definitions' : '$defs'}/${definition}`);
      if (!validate) throw new Error(`no ${definition} in the ${revision} schema.json`);
      return validate(value) ? undefined : ajv.errorsText(validate.errors);
    },
    /** The property names of a definition; undefined when the revision has no such definition. */
    properties: (definition: string): string[] | undefined =>
      definitions[definition] ? Object.keys(definitions[definition]!.properties ?? {}) : undefined,
  };
}

/** The last message answering `message` in this context (a session's). */
function answerIn(ctx: HandlerContext, message: unknown): Message {
  const reply = handleMessage(message, ctx);
  if (reply.kind !== 'send') throw new Error(reply.kind);
  return reply.messages[reply.messages.length - 1] as Message;
}

/**
 * What a value holds that the definition does not define (schema.json allows extra properties; a server of the revision
 * sends none).
 */
const undefinedProperties = (value: Record<string, unknown>, defined: readonly string[] | undefined) =>
  Object.keys(value).filter((key) => !defined?.includes(key));

describe.each(INITIALIZE_REVISIONS.filter((revision) => existsSync(sharedPath(`spec/${revision}/schema.json`))))(
  '%s: every answer validates against that schema.json, with no property it does not define',
  (revision) => {
    const schema = revisionSchema(revision);
    const session = (defects: Parameters<typeof stdioContext>[0] = []) => {
      const ctx = stdioContext(defects, '2025-11-25');
      expect(answerIn(ctx, initializeRequest(0, revision)).result.protocolVersion).toBe(revision);
      return ctx;
    };
    const callResult = (ctx: ReturnType<typeof session>, name: string, args: Record<string, unknown>) =>
      answerIn(ctx, legacyRpc(9, 'tools/call', { name, arguments: args }));

    it('REVISION_RULES names exactly the properties schema.json gives a Tool and a CallToolResult', () => {
      expect([...REVISION_RULES[revision].toolFields].sort()).toEqual(schema.properties('Tool')!.sort());
      expect([...REVISION_RULES[revision].callResultFields].sort()).toEqual(
        schema.properties('CallToolResult')!.sort(),
      );
      expect(REVISION_RULES[revision].contentMeta).toBe(schema.properties('TextContent')!.includes('_meta'));
    });

    it('initialize and every tools/list page', () => {
      const ctx = stdioContext([], '2025-11-25');
      const initialized = answerIn(ctx, initializeRequest(0, revision));
      expect(schema.check('InitializeResult', initialized.result)).toBeUndefined();
      expect(undefinedProperties(initialized.result, schema.properties('InitializeResult'))).toEqual([]);
      let cursor: string | undefined;
      let pages = 0;
      do {
        const result = answerIn(
          ctx,
          legacyRpc(pages + 1, 'tools/list', cursor === undefined ? undefined : { cursor }),
        ).result;
        expect(schema.check('ListToolsResult', result)).toBeUndefined();
        expect(undefinedProperties(result, schema.properties('ListToolsResult'))).toEqual([]);
        for (const tool of result.tools) {
          expect(undefinedProperties(tool, schema.properties('Tool')), tool.name).toEqual([]);
          if (tool.annotations)
            expect(undefinedProperties(tool.annotations, schema.properties('ToolAnnotations'))).toEqual([]);
        }
        cursor = result.nextCursor;
        pages += 1;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
    });

    it('tools/call results, tool errors and the JSON-RPC errors', () => {
      const ctx = session();
      for (const [name, args] of [
        ['get_weather', { location: 'Rome' }],
        ['add_numbers', { a: 1, b: 2 }],
        ['get_logo', {}],
        ['echo', { text: 'x' }],
        ['delete_note', { id: 'note-0' }],
      ] as const) {
        const result = callResult(ctx, name, args).result;
        expect(schema.check('CallToolResult', result), name).toBeUndefined();
        expect(undefinedProperties(result, schema.properties('CallToolResult')), name).toEqual([]);
        for (const block of result.content)
          expect(undefinedProperties(block, schema.properties(CONTENT_DEFINITIONS[block.type]!)), name).toEqual([]);
      }
      // Errors to a request whose id could not be read carry id null as JSON-RPC 2.0 says, which schema.json's
      // RequestId (a string or an integer) does not admit; only errors with an id are held to it here.
      const errors = [answerIn(ctx, legacyRpc(1, 'nope')), callResult(ctx, 'no_such_tool', {})];
      const errorDefinition = schema.properties('JSONRPCError') ? 'JSONRPCError' : 'JSONRPCErrorResponse';
      for (const error of errors) expect(schema.check(errorDefinition, error), JSON.stringify(error)).toBeUndefined();
    });

    it.runIf(REVISION_RULES[revision].batches)('the answer to a batch is a JSONRPCBatchResponse', () => {
      const reply = handleMessage(
        [legacyRpc('a', 'ping'), legacyRpc('b', 'tools/list'), legacyRpc('c', 'nope')],
        session(),
      );
      if (reply.kind !== 'batch') throw new Error(reply.kind);
      expect(reply.responses).toHaveLength(3);
      expect(schema.check('JSONRPCBatchResponse', reply.responses)).toBeUndefined();
    });

    it(`audio-content-on-2024-11-05 makes get_logo's result ${revision === '2024-11-05' ? 'invalid' : 'still valid'} here`, () => {
      const problem = schema.check(
        'CallToolResult',
        callResult(session(['audio-content-on-2024-11-05']), 'get_logo', {}).result,
      );
      if (revision === '2024-11-05') expect(problem).toContain('content/2');
      else expect(problem).toBeUndefined();
    });
  },
);
