import { betaForecast, toggleBetaTools } from './beta-tools.js';
import { confirmAction } from './confirm-action.js';
import { compileInputCheck, type InputCheck } from './tool-input.js';
import { structuredResult, textResult, toolError, type ReferenceTool, type ToolDefinition } from './tool-types.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const LOGO_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAF0lEQVR4nGOQm/D/////DP///5eb8B8AP5gJVbyRIKgAAAAASUVORK5CYII=';

const getWeather: ReferenceTool = {
  definition: {
    name: 'get_weather',
    title: 'Weather Information Provider',
    description: 'Get current weather conditions for a location (simulated, deterministic per location).',
    inputSchema: {
      type: 'object',
      properties: {
        location: { type: 'string', minLength: 1, description: 'City name or zip code' },
        units: { type: 'string', enum: ['metric', 'imperial'], description: 'Temperature units (default metric)' },
      },
      required: ['location'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        temperature: { type: 'number', description: 'Temperature in the requested units' },
        conditions: { type: 'string', description: 'Weather conditions description' },
        humidity: { type: 'number', description: 'Humidity percentage' },
      },
      required: ['temperature', 'conditions', 'humidity'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => structuredResult(simulatedWeather(String(args.location), args.units === 'imperial')),
};

const CONDITIONS = ['Sunny', 'Partly cloudy', 'Overcast', 'Light rain', 'Thunderstorms', 'Snow showers'];

function simulatedWeather(location: string, imperial: boolean) {
  let seed = 7;
  for (const char of location.toLowerCase()) seed = (seed * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  const celsius = ((seed % 400) - 50) / 10;
  const temperature = imperial ? Math.round(((celsius * 9) / 5) * 10 + 320) / 10 : celsius;
  return { temperature, conditions: CONDITIONS[seed % CONDITIONS.length] ?? 'Sunny', humidity: 20 + (seed % 70) };
}

const DOCS = [
  { title: 'Getting started with the weather API', path: '/docs/weather/start' },
  { title: 'Authentication and API keys', path: '/docs/auth' },
  { title: 'Regional endpoints and data residency', path: '/docs/regions' },
  { title: 'Rate limits and quotas', path: '/docs/limits' },
  { title: 'Notes API reference', path: '/docs/notes' },
  { title: 'Error codes and troubleshooting', path: '/docs/errors' },
];

const searchDocs: ReferenceTool = {
  definition: {
    name: 'search_docs',
    title: 'Documentation Search',
    description: 'Search the product documentation. The region is mirrored into the Mcp-Param-Region HTTP header.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Words to look for in document titles' },
        region: { type: 'string', description: 'Documentation region, e.g. us-west1', 'x-mcp-header': 'Region' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Maximum number of hits (default 3)' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => {
    const words = String(args.query).toLowerCase().split(/\s+/).filter(Boolean);
    const limit = typeof args.limit === 'number' ? args.limit : 3;
    const hits = DOCS.filter((doc) => words.some((word) => doc.title.toLowerCase().includes(word))).slice(0, limit);
    const where = typeof args.region === 'string' ? ` in region ${args.region}` : '';
    if (hits.length === 0) return textResult(`No documents matched "${String(args.query)}"${where}.`);
    const lines = hits.map((doc) => `- ${doc.title} (${doc.path})`);
    return textResult(`Found ${hits.length} document(s) for "${String(args.query)}"${where}:\n${lines.join('\n')}`);
  },
};

const addNumbers: ReferenceTool = {
  definition: {
    name: 'add_numbers',
    title: 'Add Numbers',
    description: 'Add two integers and return their sum.',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'integer', minimum: -MAX_SAFE, maximum: MAX_SAFE, description: 'First addend' },
        b: { type: 'integer', minimum: -MAX_SAFE, maximum: MAX_SAFE, description: 'Second addend' },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { sum: { type: 'integer', description: 'a + b' } },
      required: ['sum'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => structuredResult({ sum: Number(args.a) + Number(args.b) }),
};

const ITEMS = [
  { id: 'item-1', name: 'Apple', category: 'fruit', quantity: 12 },
  { id: 'item-2', name: 'Banana', category: 'fruit', quantity: 7 },
  { id: 'item-3', name: 'Hammer', category: 'hardware', quantity: 2 },
  { id: 'item-4', name: 'Screwdriver', category: 'hardware', quantity: 5 },
];

const listItems: ReferenceTool = {
  definition: {
    name: 'list_items',
    title: 'Inventory Items',
    description: 'List the items in the demo inventory, optionally only one category.',
    inputSchema: {
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['fruit', 'hardware'], description: 'Only list items of this category' },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          category: { type: 'string' },
          quantity: { type: 'integer', minimum: 0 },
        },
        required: ['id', 'name', 'category', 'quantity'],
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) =>
    structuredResult(ITEMS.filter((item) => args.category === undefined || item.category === args.category)),
};

const getTime: ReferenceTool = {
  definition: {
    name: 'get_time',
    title: 'Current Time',
    description: 'Return the current server time as an ISO 8601 timestamp (UTC).',
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: () => textResult(new Date().toISOString()),
};

const echo: ReferenceTool = {
  definition: {
    name: 'echo',
    title: 'Echo',
    description: 'Return the given text unchanged.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'Text to echo back' } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => textResult(String(args.text)),
};

const createNote: ReferenceTool = {
  definition: {
    name: 'create_note',
    title: 'Create Note',
    description: 'Create an in-memory note and return its id.',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, description: 'Note title' },
        body: { type: 'string', description: 'Note text' },
      },
      required: ['title'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  run: ({ arguments: args, state }) => {
    const note = state.notes.create(String(args.title), typeof args.body === 'string' ? args.body : '');
    return textResult(`created note ${note.id}: ${note.title}`);
  },
};

const deleteNote: ReferenceTool = {
  definition: {
    name: 'delete_note',
    title: 'Delete Note',
    description: 'Delete a note created with create_note.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: 'Id returned by create_note, e.g. note-1' } },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  run: ({ arguments: args, state, defects }) => {
    const note = state.notes.delete(String(args.id));
    if (note) return textResult(`deleted note ${note.id}: ${note.title}`);
    const deleted = defects.at.missingNote(String(args.id));
    if (deleted !== undefined) return textResult(deleted);
    return toolError(`No note with id "${String(args.id)}".`);
  },
};

const confirmActionTool: ReferenceTool = {
  definition: {
    name: 'confirm_action',
    title: 'Confirm Action',
    description: 'Ask the user to confirm an action through a form elicitation, then report the decision.',
    inputSchema: {
      type: 'object',
      properties: { action: { type: 'string', minLength: 1, description: 'What the user is asked to confirm' } },
      required: ['action'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: confirmAction,
};

const getLogo: ReferenceTool = {
  definition: {
    name: 'get_logo',
    title: 'Server Logo',
    description: 'Return the server logo as a tiny PNG image.',
    inputSchema: { type: 'object', additionalProperties: false },
    icons: [{ src: `data:image/png;base64,${LOGO_PNG_BASE64}`, mimeType: 'image/png', sizes: ['2x2'] }],
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: () => ({
    resultType: 'complete',
    content: [
      { type: 'image', data: LOGO_PNG_BASE64, mimeType: 'image/png' },
      { type: 'text', text: 'A 2x2 PNG checkerboard in blue and white.' },
    ],
  }),
};

/** The tool set in its fixed list order. */
const REFERENCE_TOOLS: readonly ReferenceTool[] = [
  getWeather,
  searchDocs,
  addNumbers,
  listItems,
  getTime,
  echo,
  createNote,
  deleteNote,
  confirmActionTool,
  getLogo,
  toggleBetaTools,
];

export interface RegisteredTool extends ReferenceTool {
  checkInput: InputCheck;
}

const REGISTRY: ReadonlyMap<string, RegisteredTool> = new Map(
  [...REFERENCE_TOOLS, betaForecast].map((tool) => [tool.definition.name, register(tool)]),
);

/** The inputSchema is compiled on the tool's first call, then reused. */
function register(tool: ReferenceTool): RegisteredTool {
  let check: InputCheck | undefined;
  return {
    ...tool,
    checkInput: (args) => {
      check ??= compileInputCheck(tool.definition.name, tool.definition.inputSchema);
      return check(args);
    },
  };
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = REFERENCE_TOOLS.map((tool) => tool.definition);

/** The tool tools/call runs: beta_forecast only while the beta tools are on. */
export function findTool(name: string, betaTools = false): RegisteredTool | undefined {
  if (name === betaForecast.definition.name && !betaTools) return undefined;
  return REGISTRY.get(name);
}
