import { sharedPath } from '../../test/helpers/shared.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateWire, type WireSchemaName } from './validator.js';

const EXAMPLES_DIR = sharedPath('spec/2026-07-28/examples');
const WIRE = '2026-07-28';
const examplesPresent = existsSync(EXAMPLES_DIR);

interface Validation {
  schema: WireSchemaName;
  /** What part of the example is validated, for the failure message. */
  part: string;
  value: unknown;
}

type Plan = (example: Record<string, unknown>) => Validation[];

const whole =
  (...schemas: WireSchemaName[]): Plan =>
  (example) =>
    schemas.map((schema) => ({ schema, part: 'example', value: example }));

const resultResponse =
  (pickResult: (result: Record<string, unknown>) => WireSchemaName | undefined): Plan =>
  (example) => {
    const result = example.result as Record<string, unknown>;
    const inner = pickResult(result);
    return [
      ...whole('JSONRPCMessage', 'JSONRPCResultResponse')(example),
      ...(inner ? [{ schema: inner, part: 'result', value: result }] : []),
    ];
  };

/** `tools/call` results are discriminated on `resultType` before the payload is validated. */
const callToolResultSchema = (result: Record<string, unknown>): WireSchemaName =>
  result.resultType === 'input_required' ? 'InputRequiredResult' : 'CallToolResult';

const withServerInfo =
  (schema: WireSchemaName): Plan =>
  (example) => {
    const meta = example._meta as Record<string, unknown> | undefined;
    const serverInfo = meta?.['io.modelcontextprotocol/serverInfo'];
    return [
      { schema, part: 'example', value: example },
      ...(serverInfo ? [{ schema: 'Implementation' as const, part: '_meta serverInfo', value: serverInfo }] : []),
    ];
  };

const PLANS: Record<string, Plan> = {
  ListToolsResult: whole('ListToolsResult'),
  Tool: whole('Tool'),
  CallToolResult: whole('CallToolResult'),
  DiscoverResult: withServerInfo('DiscoverResult'),
  ServerCapabilities: whole('ServerCapabilities'),
  InputRequiredResult: whole('InputRequiredResult'),
  TextContent: whole('ContentBlock'),
  ImageContent: whole('ContentBlock'),
  AudioContent: whole('ContentBlock'),
  ResourceLink: whole('ContentBlock'),
  EmbeddedResource: whole('ContentBlock'),
  TextResourceContents: (contents) => whole('ContentBlock')({ type: 'resource', resource: contents }),
  BlobResourceContents: (contents) => whole('ContentBlock')({ type: 'resource', resource: contents }),
  InputRequests: (requests) => whole('InputRequiredResult')({ resultType: 'input_required', inputRequests: requests }),
  UnsupportedProtocolVersionError: whole('UnsupportedProtocolVersionError', 'JSONRPCErrorResponse', 'JSONRPCMessage'),
  MissingRequiredClientCapabilityError: whole(
    'MissingRequiredClientCapabilityError',
    'JSONRPCErrorResponse',
    'JSONRPCMessage',
  ),
  HeaderMismatchError: whole('HeaderMismatchError', 'JSONRPCErrorResponse', 'JSONRPCMessage'),
  InvalidParamsError: whole('InvalidParamsError'),
  MethodNotFoundError: whole('MethodNotFoundError'),
  ListToolsResultResponse: resultResponse(() => 'ListToolsResult'),
  CallToolResultResponse: resultResponse(callToolResultSchema),
  DiscoverResultResponse: resultResponse(() => 'DiscoverResult'),
  SubscriptionsListenResultResponse: resultResponse(() => undefined),
  SubscriptionsListenResult: (result) => whole('JSONRPCResultResponse')({ jsonrpc: '2.0', id: 'listen-1', result }),
  ListToolsRequest: whole('JSONRPCRequest', 'JSONRPCMessage'),
  CallToolRequest: whole('JSONRPCRequest', 'JSONRPCMessage'),
  DiscoverRequest: whole('JSONRPCRequest', 'JSONRPCMessage'),
  SubscriptionsListenRequest: whole('JSONRPCRequest', 'JSONRPCMessage'),
  ToolListChangedNotification: whole('JSONRPCNotification', 'JSONRPCMessage'),
  SubscriptionsAcknowledgedNotification: whole('JSONRPCNotification', 'JSONRPCMessage'),
};

/** Example folders for types we deliberately do not model (request params, client results, sampling content). */
const NOT_MODELLED = new Set([
  'CallToolRequestParams',
  'PaginatedRequestParams',
  'InputResponses',
  'ToolResultContent',
  'ToolUseContent',
]);

function exampleFiles(folder: string): string[] {
  const dir = join(EXAMPLES_DIR, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((file) => file.endsWith('.json'));
}

function readExample(folder: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(EXAMPLES_DIR, folder, file), 'utf8')) as Record<string, unknown>;
}

const title = examplesPresent
  ? `official ${WIRE} examples validate against our schemas`
  : `official ${WIRE} examples: SKIPPED because ${EXAMPLES_DIR} is absent`;

describe.skipIf(!examplesPresent)(title, () => {
  it('classifies every example folder as modelled or deliberately not modelled', () => {
    const folders = readdirSync(EXAMPLES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const unclassified = folders.filter((folder) => !(folder in PLANS) && !NOT_MODELLED.has(folder));
    expect(unclassified).toEqual([]);
  });

  for (const [folder, plan] of Object.entries(PLANS)) {
    describe(folder, () => {
      it('has at least one example file', () => {
        expect(exampleFiles(folder).length).toBeGreaterThan(0);
      });

      for (const file of exampleFiles(folder)) {
        it(`${file} is valid`, () => {
          const validations = plan(readExample(folder, file));
          expect(validations.length).toBeGreaterThan(0);
          for (const { schema, part, value } of validations) {
            expect(validateWire(schema, WIRE, value), `${part} as ${schema}`).toEqual([]);
          }
        });
      }
    });
  }
});
