import type { JsonObject } from './seams/json.js';

/** A tool that only a defect lists, with this name and inputSchema (and any more fields). */
export const extraTool = (name: string, inputSchema: JsonObject, more: JsonObject = {}): JsonObject => ({
  name,
  title: 'Defect probe',
  description: 'A tool added by a reference-server defect.',
  inputSchema,
  // Not callable (tools/call does not know it), so it must not invite calls: not read-only.
  annotations: { readOnlyHint: false, destructiveHint: false },
  ...more,
});

/** The extra tool route_query: a required string query beside these properties (the x-mcp-header defects'). */
export const headerTool = (properties: JsonObject): JsonObject =>
  extraTool('route_query', {
    type: 'object',
    properties: { query: { type: 'string' }, ...properties },
    required: ['query'],
  });
