import { isObject } from '../../../src/core/jsonrpc.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { toolError } from '../tool-types.js';
import { defineDefects } from './define.js';

/** The hook of the unknown-tool defects that answer with another error code than -32602 (HTTP 200 all the same). */
const unknownToolAnsweredWith =
  (code: number) =>
  (name: string): ProtocolError =>
    new ProtocolError(code, `Unknown tool: ${name}`, 200);

/** Defects that the checks of suites/tool-calls/ catch, each breaking one of them. */
export const TOOL_CALLS_DEFECTS = defineDefects([
  {
    name: 'embedded-resource-undeclared',
    breaks: 'tools.result.embedded-implies-resources',
    description: "get_time's result embeds a resource (clock://utc) while the server declares no resources capability",
    transports: ['stdio'],
    at: {
      toolResult: (name, result) => {
        if (name !== 'get_time' || result.isError === true || !Array.isArray(result.content)) return;
        const clock = { type: 'resource', resource: { uri: 'clock://utc', mimeType: 'text/plain', text: 'UTC' } };
        return { ...result, content: [...result.content, clock] };
      },
    },
  },
  {
    name: 'structured-content-omitted',
    breaks: 'tools.output.conform',
    description:
      'tools/call results carry no structuredContent (only its JSON in a text block) although get_weather and ' +
      'add_numbers list an outputSchema: the 2025-03-26 result shape served to a 2025-06-18 session',
    transports: ['stdio'],
    revision: '2025-06-18',
    at: {
      sessionResult: (method, result) => {
        if (method === 'tools/call' && Array.isArray(result.content)) delete result.structuredContent;
      },
    },
  },
  {
    name: 'unknown-tool-is-error',
    breaks: 'tools.err.unknown-tool',
    description: 'tools/call of an unknown tool answers a result with isError: true instead of -32602',
    at: { unknownTool: (name) => ({ ...toolError(`Unknown tool: ${name}`) }) },
  },
  {
    name: 'malformed-arguments-accepted',
    breaks: 'tools.err.protocol-errors',
    description: 'tools/call arguments that are not an object (array, string, null) are treated as {}',
    at: {
      callParamsRules: (rules) => {
        rules.nonObjectArguments = 'empty';
      },
    },
  },
  {
    name: 'unknown-tool-32002',
    breaks: 'err.retired',
    description: 'tools/call of an unknown tool answers the retired code -32002',
    at: { unknownTool: unknownToolAnsweredWith(-32002) },
  },
  {
    name: 'unknown-tool-32050',
    breaks: 'err.reserved.only-defined',
    description: 'tools/call of an unknown tool answers -32050, undefined in the MCP-reserved range',
    at: { unknownTool: unknownToolAnsweredWith(-32050) },
  },
  {
    name: 'unknown-tool-32001',
    breaks: 'err.legacy.should-not-use',
    description: 'tools/call of an unknown tool answers the pre-release code -32001 (legacy range)',
    at: { unknownTool: unknownToolAnsweredWith(-32001) },
  },
  {
    name: 'unknown-tool-32020',
    breaks: 'err.reserved.meaning',
    description: 'tools/call of an unknown tool answers -32020 (HeaderMismatch) over stdio, where there are no headers',
    transports: ['stdio'],
    at: { unknownTool: unknownToolAnsweredWith(-32020) },
  },
  {
    name: 'unknown-tool-32500',
    breaks: 'err.app-codes-outside',
    description: 'tools/call of an unknown tool answers -32500, an application code inside the JSON-RPC reserved range',
    transports: ['stdio'],
    at: { unknownTool: unknownToolAnsweredWith(-32500) },
  },
  {
    name: 'valid-args-rejected',
    breaks: 'tools.err.tool-errors-in-result',
    description: 'echo answers every call with -32602, even with valid arguments',
    at: { callArguments: (name) => (name === 'echo' ? invalidParams('Invalid params') : undefined) },
  },
  {
    name: 'structured-output-mismatch',
    breaks: 'tools.output.conform',
    description:
      'get_weather returns humidity as a string ("65%"), breaking its outputSchema (the text mirror follows)',
    at: {
      toolResult: (name, result) => {
        if (name !== 'get_weather' || !isObject(result.structuredContent)) return;
        const structuredContent = {
          ...result.structuredContent,
          humidity: `${String(result.structuredContent.humidity)}%`,
        };
        return { ...result, structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] };
      },
    },
  },
  {
    name: 'no-text-mirror',
    breaks: 'tools.result.structured-text-mirror',
    description: 'add_numbers returns structuredContent with a prose text block instead of its JSON',
    at: {
      toolResult: (name, result) => {
        if (name !== 'add_numbers' || !isObject(result.structuredContent)) return;
        return { ...result, content: [{ type: 'text', text: `The sum is ${String(result.structuredContent.sum)}.` }] };
      },
    },
  },
  {
    name: 'invalid-args-succeed',
    breaks: 'tools.err.execution-errors',
    description: 'get_time skips input validation: arguments its schema forbids succeed',
    at: { skipsInputCheck: (name) => (name === 'get_time' ? true : undefined) },
  },
  {
    name: 'coerces-any-type',
    breaks: 'tools.err.execution-errors',
    description:
      'echo converts its text from any JSON type with String() before validating, as z.coerce.string() does: ' +
      '[] is echoed as an empty text',
    at: {
      callArguments: (name, args) => {
        if (name === 'echo' && Object.hasOwn(args, 'text')) return { ...args, text: String(args.text) };
      },
    },
  },
]);
