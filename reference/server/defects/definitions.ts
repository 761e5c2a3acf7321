import { defineDefects } from './define.js';

/** Defects that the checks of suites/definitions/ catch, each breaking one of them. */
export const DEFINITIONS_DEFECTS = defineDefects([
  {
    name: 'tool-name-too-long',
    breaks: 'tools.name.length',
    description: 'lists an extra tool whose name is 129 characters long',
  },
  {
    name: 'tool-name-with-space',
    breaks: 'tools.name.charset',
    description: 'lists an extra tool named "get forecast"',
  },
  { name: 'tool-title-not-string', breaks: 'tools.tool.shape', description: 'the first tool has title: 42' },
  {
    name: 'tool-without-description',
    breaks: 'tools.tool.description',
    description: 'the second tool has no description',
  },
  {
    name: 'hidden-text-in-description',
    breaks: 'tools.tool.hidden-text',
    description: "the second tool's description hides a ZERO WIDTH SPACE (U+200B) inside a word",
  },
  {
    name: 'input-schema-not-object',
    breaks: 'tools.schema.input-valid-object',
    description: 'lists an extra tool whose inputSchema has type "string"',
  },
  {
    name: 'annotation-not-boolean',
    breaks: 'tools.annotations.types',
    description: 'the first tool has annotations.readOnlyHint: "yes"',
  },
  {
    name: 'icon-sizes-not-array',
    breaks: 'icons.shape',
    description: 'the first tool has an icon whose sizes is the string "48x48"',
  },
  {
    name: 'icon-javascript-scheme',
    breaks: 'icons.safe-scheme',
    description: 'the first tool has an icon whose src is a javascript: URI',
  },
  {
    name: 'invalid-input-schema',
    breaks: 'jsonschema.valid.input',
    description: 'lists an extra tool whose inputSchema has type "strng" on a property',
  },
  {
    name: 'invalid-output-schema',
    breaks: 'jsonschema.valid.output',
    description: 'lists an extra tool whose outputSchema has required: "temperature" (not an array)',
  },
  {
    name: 'draft-07-schema',
    breaks: 'jsonschema.dialect.recommended',
    description: 'lists an extra tool whose inputSchema declares draft-07',
  },
  {
    name: 'dangling-ref',
    breaks: 'jsonschema.ref.resolves',
    description: 'lists an extra tool whose inputSchema $refs #/$defs/missing',
  },
  {
    name: 'external-ref',
    breaks: 'jsonschema.ref.external',
    description: 'lists an extra tool whose inputSchema $refs https://example.com/schemas/address.json',
  },
  { name: 'xmcp-empty', breaks: 'xmcp.value.non-empty', description: 'lists an extra tool with x-mcp-header ""' },
  {
    name: 'xmcp-not-token',
    breaks: 'xmcp.value.token',
    description: 'lists an extra tool with x-mcp-header "My Region"',
  },
  {
    name: 'xmcp-control-char',
    breaks: 'xmcp.value.no-ctl',
    description: 'lists an extra tool with an x-mcp-header containing CR LF',
  },
  {
    name: 'xmcp-duplicate',
    breaks: 'xmcp.value.unique-ci',
    description: 'lists an extra tool with x-mcp-header "Region" and "REGION"',
  },
  {
    name: 'xmcp-number',
    breaks: 'xmcp.target.primitive',
    description: 'lists an extra tool with x-mcp-header on a number parameter',
  },
  {
    name: 'xmcp-unsafe-integer',
    breaks: 'xmcp.target.int-safe-range',
    description:
      'lists an extra tool with x-mcp-header on an integer with minimum 2^60 (every value it admits is unsafe)',
  },
  {
    name: 'xmcp-unreachable',
    breaks: 'xmcp.target.static-reach',
    description: 'lists an extra tool with x-mcp-header under items',
  },
  {
    name: 'python-style-pattern',
    breaks: 'jsonschema.pattern.ecma',
    description:
      'get_weather lists its location with the Python-style pattern ^(?P<city>.+)\\Z (calls are still served)',
  },
  {
    name: 'xmcp-property-named-default',
    breaks: 'xmcp.target.primitive',
    description:
      'lists an extra tool with x-mcp-header on a number parameter named "default" (and a conforming one with ' +
      'a parameter named "x-mcp-header")',
  },
]);
