import { sharedPath } from '../../test/helpers/shared.js';
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { handleMessage } from './handler.js';
import { meta, rpc, stdioContext } from './test-support.js';

const SCHEMA_PATH = sharedPath('spec/2026-07-28/schema.json');
const haveSchema = existsSync(SCHEMA_PATH);

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
    for (const [name, args] of [['get_weather', { location: 'Rome' }], ['get_logo', {}], ['echo', {}], ['list_items', {}]] as const) {
      const result = respond(rpc(1, 'tools/call', { name, arguments: args })).result;
      expect(check('CallToolResult', result), name).toBeUndefined();
    }
    const message = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { _meta: meta({ elicitation: {} }), name: 'confirm_action', arguments: { action: 'x' } } };
    expect(check('InputRequiredResult', respond(message).result)).toBeUndefined();
    expect(check('ElicitRequest', respond(message).result.inputRequests.confirm)).toBeUndefined();
  });

  it('error responses', () => {
    expect(check('JSONRPCErrorResponse', respond(rpc(1, 'nope')))).toBeUndefined();
    const badVersion = respond({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' }) } });
    expect(check('UnsupportedProtocolVersionError', badVersion)).toBeUndefined();
    const missingCapability = respond(rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } }));
    expect(check('MissingRequiredClientCapabilityError', missingCapability)).toBeUndefined();
  });

  it('the bad-instructions defect makes the discover result schema-invalid', () => {
    expect(check('DiscoverResult', respond(rpc(1, 'server/discover'), ['bad-instructions']).result)).toContain('instructions');
  });
});
