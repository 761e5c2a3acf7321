import type { ActiveDefects } from './defects/active.js';
import { searchDefectDefinitions } from './search-defects.js';
import { TOOL_DEFINITIONS } from './tools.js';

type Listed = Record<string, unknown>;

const extraTool = (name: string, inputSchema: Listed, more: Listed = {}): Listed => ({
  name,
  title: 'Defect probe',
  description: 'A tool added by a reference-server defect.',
  inputSchema,
  // Not callable (tools/call does not know it), so it must not invite calls: not read-only.
  annotations: { readOnlyHint: false, destructiveHint: false },
  ...more,
});

const headerTool = (properties: Listed): Listed =>
  extraTool('route_query', {
    type: 'object',
    properties: { query: { type: 'string' }, ...properties },
    required: ['query'],
  });

/**
 * Tool-definition defects: each changes what tools/list shows (never what tools/call runs) so that exactly one
 * static rule breaks. Extra tools are appended to the listing.
 */
const TOOL_DEFECTS: Readonly<Record<string, (tools: Listed[]) => void>> = {
  'tool-name-too-long': (tools) => tools.push(extraTool('t'.repeat(129), { type: 'object' })),
  'tool-name-with-space': (tools) => tools.push(extraTool('get forecast', { type: 'object' })),
  'tool-title-not-string': (tools) => (tools[0]!.title = 42),
  'tool-without-description': (tools) => delete tools[1]!.description,
  'hidden-text-in-description': (tools) =>
    (tools[1]!.description = String(tools[1]!.description).replace('documentation', 'docu\u200Bmentation')),
  'input-schema-not-object': (tools) => tools.push(extraTool('string_input', { type: 'string' })),
  'annotation-not-boolean': (tools) => (tools[0]!.annotations = { readOnlyHint: 'yes' }),
  'icon-sizes-not-array': (tools) =>
    (tools[0]!.icons = [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: '48x48' }]),
  'icon-javascript-scheme': (tools) => (tools[0]!.icons = [{ src: 'javascript:alert(1)', mimeType: 'image/png' }]),
  'invalid-input-schema': (tools) =>
    tools.push(extraTool('typo_schema', { type: 'object', properties: { a: { type: 'strng' } } })),
  'invalid-output-schema': (tools) =>
    tools.push(
      extraTool('typo_output', { type: 'object' }, { outputSchema: { type: 'object', required: 'temperature' } }),
    ),
  'draft-07-schema': (tools) =>
    tools.push(
      extraTool('legacy_dialect', {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'integer' } },
      }),
    ),
  'dangling-ref': (tools) =>
    tools.push(
      extraTool('dangling_ref', {
        type: 'object',
        properties: { a: { $ref: '#/$defs/missing' } },
        $defs: { present: { type: 'string' } },
      }),
    ),
  'external-ref': (tools) =>
    tools.push(
      extraTool('remote_ref', {
        type: 'object',
        properties: { a: { $ref: 'https://example.com/schemas/address.json' } },
      }),
    ),
  'xmcp-empty': (tools) => tools.push(headerTool({ region: { type: 'string', 'x-mcp-header': '' } })),
  'xmcp-not-token': (tools) => tools.push(headerTool({ region: { type: 'string', 'x-mcp-header': 'My Region' } })),
  'xmcp-control-char': (tools) =>
    tools.push(headerTool({ region: { type: 'string', 'x-mcp-header': 'Region\r\nX-Injected: 1' } })),
  'xmcp-duplicate': (tools) =>
    tools.push(
      headerTool({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        zone: { type: 'string', 'x-mcp-header': 'REGION' },
      }),
    ),
  'xmcp-number': (tools) => tools.push(headerTool({ ratio: { type: 'number', 'x-mcp-header': 'Ratio' } })),
  'xmcp-unsafe-integer': (tools) =>
    tools.push(headerTool({ shard: { type: 'integer', minimum: 2 ** 60, 'x-mcp-header': 'Shard' } })),
  'xmcp-unreachable': (tools) =>
    tools.push(headerTool({ tags: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Tag' } } })),
  'meta-key-empty-label': (tools) => (tools[0]!._meta = { 'com..example/priority': 'high' }),
  'xmcp-sensitive': (tools) => tools.push(headerTool({ api_key: { type: 'string', 'x-mcp-header': 'Api-Key' } })),
  'no-read-only-hints': (tools) => {
    for (const tool of tools)
      if (tool.annotations && typeof tool.annotations === 'object') delete (tool.annotations as Listed).readOnlyHint;
  },
  'region-pattern': (tools) => {
    const schema = tools.find((t) => t.name === 'search_docs')!.inputSchema as { properties: Record<string, Listed> };
    schema.properties.region = { ...schema.properties.region, pattern: REGION_PATTERN };
  },
  // On a callable tool, so that the argument generator meets the pattern too (it refuses the schema with a reason).
  'python-style-pattern': (tools) => {
    const weather = tools.find((t) => t.name === 'get_weather')!;
    (weather.inputSchema as { properties: { location: Listed } }).properties.location.pattern = '^(?P<city>.+)\\Z';
  },
  // Next to it, a conforming tool whose parameter is named x-mcp-header: a property name, not an annotation.
  'xmcp-property-named-default': (tools) =>
    tools.push(
      extraTool('name_header', {
        type: 'object',
        properties: { 'x-mcp-header': { type: 'string', description: 'A header name (a plain parameter)' } },
      }),
      headerTool({ default: { type: 'number', 'x-mcp-header': 'Default' } }),
    ),
};

/** The region-pattern variant's constraint: AWS-style regions (eu-central-1), so "us-west1" does not fit. */
export const REGION_PATTERN = '^[a-z]{2}-[a-z]+-[0-9]$';

/** The connection-scoped-tools defect's extra tool, named after the connection that lists it. */
export const connectionScopedTool = (connection: string): Listed => extraTool(`conn_${connection}`, { type: 'object' });

/** The tools-change-after-call defect's extra tool, listed only to a connection that has called a tool. */
export const RECENT_CALLS_TOOL: Listed = extraTool('recent_calls', { type: 'object' });

export const TOOL_DEFECT_NAMES: readonly string[] = Object.keys(TOOL_DEFECTS);

let cleanCopy: Listed[] | undefined;

/** The tool definitions tools/list shows under the active defects (a fresh copy whenever a defect changes it). */
export function listedToolDefinitions(defects: ActiveDefects): readonly Listed[] {
  const active = TOOL_DEFECT_NAMES.filter((name) => defects.has(name));
  const searched = searchDefectDefinitions(defects);
  if (active.length === 0 && searched.length === 0) return (cleanCopy ??= TOOL_DEFINITIONS as unknown as Listed[]);
  const tools = structuredClone([...TOOL_DEFINITIONS, ...searched]) as unknown as Listed[];
  for (const name of active) TOOL_DEFECTS[name]!(tools);
  return tools;
}
