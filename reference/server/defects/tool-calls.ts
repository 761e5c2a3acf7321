import { defineDefects } from './define.js';

/** Defects that the checks of suites/tool-calls/ catch, each breaking one of them. */
export const TOOL_CALLS_DEFECTS = defineDefects([
  {
    name: 'embedded-resource-undeclared',
    breaks: 'tools.result.embedded-implies-resources',
    description: "get_time's result embeds a resource (clock://utc) while the server declares no resources capability",
    transports: ['stdio'],
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
  },
  {
    name: 'malformed-arguments-accepted',
    breaks: 'tools.err.protocol-errors',
    description: 'tools/call arguments that are not an object (array, string, null) are treated as {}',
  },
  {
    name: 'unknown-tool-32002',
    breaks: 'err.retired',
    description: 'tools/call of an unknown tool answers the retired code -32002',
  },
  {
    name: 'unknown-tool-32050',
    breaks: 'err.reserved.only-defined',
    description: 'tools/call of an unknown tool answers -32050, undefined in the MCP-reserved range',
  },
  {
    name: 'unknown-tool-32001',
    breaks: 'err.legacy.should-not-use',
    description: 'tools/call of an unknown tool answers the pre-release code -32001 (legacy range)',
  },
  {
    name: 'unknown-tool-32020',
    breaks: 'err.reserved.meaning',
    description: 'tools/call of an unknown tool answers -32020 (HeaderMismatch) over stdio, where there are no headers',
    transports: ['stdio'],
  },
  {
    name: 'unknown-tool-32500',
    breaks: 'err.app-codes-outside',
    description: 'tools/call of an unknown tool answers -32500, an application code inside the JSON-RPC reserved range',
    transports: ['stdio'],
  },
  {
    name: 'valid-args-rejected',
    breaks: 'tools.err.tool-errors-in-result',
    description: 'echo answers every call with -32602, even with valid arguments',
  },
  {
    name: 'structured-output-mismatch',
    breaks: 'tools.output.conform',
    description:
      'get_weather returns humidity as a string ("65%"), breaking its outputSchema (the text mirror follows)',
  },
  {
    name: 'no-text-mirror',
    breaks: 'tools.result.structured-text-mirror',
    description: 'add_numbers returns structuredContent with a prose text block instead of its JSON',
  },
  {
    name: 'invalid-args-succeed',
    breaks: 'tools.err.execution-errors',
    description: 'get_time skips input validation: arguments its schema forbids succeed',
  },
  {
    name: 'coerces-any-type',
    breaks: 'tools.err.execution-errors',
    description:
      'echo converts its text from any JSON type with String() before validating, as z.coerce.string() does: ' +
      '[] is echoed as an empty text',
  },
]);
