import { defineDefects } from './define.js';
import { extraTool, headerTool } from './extra-tools.js';
import type { JsonObject } from './seams/json.js';

/** Defects that the checks of suites/definitions/ catch, each breaking one of them. */
export const DEFINITIONS_DEFECTS = defineDefects([
  {
    name: 'tool-name-too-long',
    breaks: 'tools.name.length',
    description: 'lists an extra tool whose name is 129 characters long',
    at: {
      listedTools: (tools) => {
        tools.push(extraTool('t'.repeat(129), { type: 'object' }));
      },
    },
  },
  {
    name: 'tool-name-with-space',
    breaks: 'tools.name.charset',
    description: 'lists an extra tool named "get forecast"',
    at: {
      listedTools: (tools) => {
        tools.push(extraTool('get forecast', { type: 'object' }));
      },
    },
  },
  {
    name: 'tool-title-not-string',
    breaks: 'tools.tool.shape',
    description: 'the first tool has title: 42',
    at: {
      listedTools: (tools) => {
        tools[0]!.title = 42;
      },
    },
  },
  {
    name: 'tool-without-description',
    breaks: 'tools.tool.description',
    description: 'the second tool has no description',
    at: {
      listedTools: (tools) => {
        delete tools[1]!.description;
      },
    },
  },
  {
    name: 'hidden-text-in-description',
    breaks: 'tools.tool.hidden-text',
    description: "the second tool's description hides a ZERO WIDTH SPACE (U+200B) inside a word",
    at: {
      listedTools: (tools) => {
        tools[1]!.description = String(tools[1]!.description).replace('documentation', 'docu\u200Bmentation');
      },
    },
  },
  {
    name: 'input-schema-not-object',
    breaks: 'tools.schema.input-valid-object',
    description: 'lists an extra tool whose inputSchema has type "string"',
    at: {
      listedTools: (tools) => {
        tools.push(extraTool('string_input', { type: 'string' }));
      },
    },
  },
  {
    name: 'annotation-not-boolean',
    breaks: 'tools.annotations.types',
    description: 'the first tool has annotations.readOnlyHint: "yes"',
    at: {
      listedTools: (tools) => {
        tools[0]!.annotations = { readOnlyHint: 'yes' };
      },
    },
  },
  {
    name: 'icon-sizes-not-array',
    breaks: 'icons.shape',
    description: 'the first tool has an icon whose sizes is the string "48x48"',
    at: {
      listedTools: (tools) => {
        tools[0]!.icons = [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: '48x48' }];
      },
    },
  },
  {
    name: 'icon-javascript-scheme',
    breaks: 'icons.safe-scheme',
    description: 'the first tool has an icon whose src is a javascript: URI',
    at: {
      listedTools: (tools) => {
        tools[0]!.icons = [{ src: 'javascript:alert(1)', mimeType: 'image/png' }];
      },
    },
  },
  {
    name: 'invalid-input-schema',
    breaks: 'jsonschema.valid.input',
    description: 'lists an extra tool whose inputSchema has type "strng" on a property',
    at: {
      listedTools: (tools) => {
        tools.push(extraTool('typo_schema', { type: 'object', properties: { a: { type: 'strng' } } }));
      },
    },
  },
  {
    name: 'invalid-output-schema',
    breaks: 'jsonschema.valid.output',
    description: 'lists an extra tool whose outputSchema has required: "temperature" (not an array)',
    at: {
      listedTools: (tools) => {
        tools.push(
          extraTool('typo_output', { type: 'object' }, { outputSchema: { type: 'object', required: 'temperature' } }),
        );
      },
    },
  },
  {
    name: 'draft-07-schema',
    breaks: 'jsonschema.dialect.recommended',
    description: 'lists an extra tool whose inputSchema declares draft-07',
    at: {
      listedTools: (tools) => {
        tools.push(
          extraTool('legacy_dialect', {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { a: { type: 'integer' } },
          }),
        );
      },
    },
  },
  {
    name: 'dangling-ref',
    breaks: 'jsonschema.ref.resolves',
    description: 'lists an extra tool whose inputSchema $refs #/$defs/missing',
    at: {
      listedTools: (tools) => {
        tools.push(
          extraTool('dangling_ref', {
            type: 'object',
            properties: { a: { $ref: '#/$defs/missing' } },
            $defs: { present: { type: 'string' } },
          }),
        );
      },
    },
  },
  {
    name: 'external-ref',
    breaks: 'jsonschema.ref.external',
    description: 'lists an extra tool whose inputSchema $refs https://example.com/schemas/address.json',
    at: {
      listedTools: (tools) => {
        tools.push(
          extraTool('remote_ref', {
            type: 'object',
            properties: { a: { $ref: 'https://example.com/schemas/address.json' } },
          }),
        );
      },
    },
  },
  {
    name: 'xmcp-empty',
    breaks: 'xmcp.value.non-empty',
    description: 'lists an extra tool with x-mcp-header ""',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ region: { type: 'string', 'x-mcp-header': '' } }));
      },
    },
  },
  {
    name: 'xmcp-not-token',
    breaks: 'xmcp.value.token',
    description: 'lists an extra tool with x-mcp-header "My Region"',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ region: { type: 'string', 'x-mcp-header': 'My Region' } }));
      },
    },
  },
  {
    name: 'xmcp-control-char',
    breaks: 'xmcp.value.no-ctl',
    description: 'lists an extra tool with an x-mcp-header containing CR LF',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ region: { type: 'string', 'x-mcp-header': 'Region\r\nX-Injected: 1' } }));
      },
    },
  },
  {
    name: 'xmcp-duplicate',
    breaks: 'xmcp.value.unique-ci',
    description: 'lists an extra tool with x-mcp-header "Region" and "REGION"',
    at: {
      listedTools: (tools) => {
        tools.push(
          headerTool({
            region: { type: 'string', 'x-mcp-header': 'Region' },
            zone: { type: 'string', 'x-mcp-header': 'REGION' },
          }),
        );
      },
    },
  },
  {
    name: 'xmcp-number',
    breaks: 'xmcp.target.primitive',
    description: 'lists an extra tool with x-mcp-header on a number parameter',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ ratio: { type: 'number', 'x-mcp-header': 'Ratio' } }));
      },
    },
  },
  {
    name: 'xmcp-unsafe-integer',
    breaks: 'xmcp.target.int-safe-range',
    description:
      'lists an extra tool with x-mcp-header on an integer with minimum 2^60 (every value it admits is unsafe)',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ shard: { type: 'integer', minimum: 2 ** 60, 'x-mcp-header': 'Shard' } }));
      },
    },
  },
  {
    name: 'xmcp-unreachable',
    breaks: 'xmcp.target.static-reach',
    description: 'lists an extra tool with x-mcp-header under items',
    at: {
      listedTools: (tools) => {
        tools.push(headerTool({ tags: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Tag' } } }));
      },
    },
  },
  {
    name: 'python-style-pattern',
    breaks: 'jsonschema.pattern.ecma',
    description:
      'get_weather lists its location with the Python-style pattern ^(?P<city>.+)\\Z (calls are still served)',
    at: {
      // On a callable tool, so that the argument generator meets the pattern too (it refuses the schema with a reason).
      listedTools: (tools) => {
        const weather = tools.find((tool) => tool.name === 'get_weather')!;
        (weather.inputSchema as { properties: { location: JsonObject } }).properties.location.pattern =
          '^(?P<city>.+)\\Z';
      },
    },
  },
  {
    name: 'xmcp-property-named-default',
    breaks: 'xmcp.target.primitive',
    description:
      'lists an extra tool with x-mcp-header on a number parameter named "default" (and a conforming one with ' +
      'a parameter named "x-mcp-header")',
    at: {
      listedTools: (tools) => {
        tools.push(
          extraTool('name_header', {
            type: 'object',
            properties: { 'x-mcp-header': { type: 'string', description: 'A header name (a plain parameter)' } },
          }),
          headerTool({ default: { type: 'number', 'x-mcp-header': 'Default' } }),
        );
      },
    },
  },
]);
