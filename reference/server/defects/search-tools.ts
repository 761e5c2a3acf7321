import type { ActiveDefects } from './active.js';
import { compileInputCheck } from '../tool-input.js';
import { structuredResult, textResult, type ReferenceTool, type ToolDefinition } from '../tool-types.js';
import type { RegisteredTool } from '../tools.js';

/**
 * Defects that only a search finds: each adds one read-only tool that behaves well on the scripted checks' small
 * sample and on most generated cases, and breaks one rule for a rare (but reachable) kind of input.
 */

const STYLES = ['plain', 'bold', 'italic', 'code'];

const isRareLabel = (args: Record<string, unknown>) => args.style === 'code' && args.text === '';

const formatLabel: ReferenceTool = {
  definition: {
    name: 'format_label',
    title: 'Format Label',
    description: 'Render a short label in one of four styles (search defect: fails for an empty code label).',
    inputSchema: {
      type: 'object',
      properties: {
        style: { type: 'string', enum: STYLES, description: 'Label style' },
        text: { type: 'string', description: 'Label text' },
      },
      required: ['style', 'text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => {
    if (isRareLabel(args)) throw new Error('the label renderer has no output for an empty code span');
    const text = String(args.text);
    const styled =
      { plain: text, bold: `**${text}**`, italic: `_${text}_`, code: `\`${text}\`` }[String(args.style)] ?? text;
    return textResult(styled);
  },
};

const lookupCode: ReferenceTool = {
  definition: {
    name: 'lookup_code',
    title: 'Look Up Code',
    description: 'Look up a product code (search defect: lenient mode skips the required-property check).',
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 1, description: 'Product code' },
        mode: { type: 'string', enum: ['strict', 'lenient'], description: 'Matching mode (default strict)' },
      },
      required: ['code'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) =>
    textResult(
      typeof args.code === 'string' ? `No product has code "${args.code}".` : 'No code given: nothing looked up.',
    ),
};

const UNITS = ['chars', 'words', 'lines'];

const textStats: ReferenceTool = {
  definition: {
    name: 'text_stats',
    title: 'Text Statistics',
    description: 'Count the characters, words or lines of a text (search defect: line counts break the outputSchema).',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'Text to measure' },
        unit: { type: 'string', enum: UNITS, description: 'What to count (default chars)' },
      },
      required: ['text'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { count: { type: 'integer', minimum: 0 }, unit: { type: 'string' } },
      required: ['count', 'unit'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => {
    const text = String(args.text);
    const unit = typeof args.unit === 'string' ? args.unit : 'chars';
    if (unit === 'lines') return structuredResult({ count: `${text.split('\n').length} lines`, unit });
    const count = unit === 'words' ? text.split(/\s+/).filter(Boolean).length : [...text].length;
    return structuredResult({ count, unit });
  },
};

/** Only integers with |reading| % 7 == 3, together with a negative offset: a random float almost never lands there. */
const isRareReading = (args: Record<string, unknown>) =>
  Number.isInteger(args.reading) &&
  Math.abs(args.reading as number) % 7 === 3 &&
  typeof args.offset === 'number' &&
  args.offset < 0;

const offsetReading: ReferenceTool = {
  definition: {
    name: 'offset_reading',
    title: 'Offset Reading',
    description:
      'Apply a signed offset to a meter reading (search defect: some whole readings with a negative offset ' +
      'break the outputSchema).',
    inputSchema: {
      type: 'object',
      properties: {
        reading: { type: 'number', description: 'Meter reading' },
        offset: { type: 'number', description: 'Signed offset' },
      },
      required: ['reading', 'offset'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: ({ arguments: args }) => {
    const value = Number(args.reading) + Number(args.offset);
    return structuredResult({ value: isRareReading(args) ? value.toFixed(2) : value });
  },
};

/** The tools a search defect adds, each under its name (a defect adds one at the addedTools seam). */
const SEARCH_DEFECT_TOOLS: ReadonlyMap<string, ReferenceTool> = new Map(
  [formatLabel, lookupCode, textStats, offsetReading].map((tool) => [tool.definition.name, tool]),
);

/** Every tool a search defect can add (for the build's precompiled input validators). */
export const SEARCH_DEFECT_DEFINITIONS: readonly ToolDefinition[] = [...SEARCH_DEFECT_TOOLS.values()].map(
  (tool) => tool.definition,
);

const registered = new Map<string, RegisteredTool>();

/** The inputSchema is compiled on the tool's first call, then reused. */
function registerOnce(tool: ReferenceTool): RegisteredTool {
  let entry = registered.get(tool.definition.name);
  if (!entry) {
    const check = compileInputCheck(tool.definition.name, tool.definition.inputSchema);
    entry = { ...tool, checkInput: check };
    registered.set(tool.definition.name, entry);
  }
  return entry;
}

function active(defects: ActiveDefects): ReferenceTool[] {
  const names: string[] = [];
  defects.at.addedTools(names);
  return names.flatMap((name) => SEARCH_DEFECT_TOOLS.get(name) ?? []);
}

/** The tools the active search defects add to the listing. */
export function searchDefectDefinitions(defects: ActiveDefects): ToolDefinition[] {
  return active(defects).map((tool) => tool.definition);
}

/** The callable tool an active search defect adds under this name. */
export function findSearchDefectTool(name: string, defects: ActiveDefects): RegisteredTool | undefined {
  const found = active(defects).find((tool) => tool.definition.name === name);
  return found ? registerOnce(found) : undefined;
}

/** Whether a request calls format_label with its rare input (on which crash-on-rare-input exits the process). */
export function crashesOn(method: string, params: Record<string, unknown>): boolean {
  if (method !== 'tools/call') return false;
  const args = params.arguments;
  return (
    params.name === 'format_label' &&
    typeof args === 'object' &&
    args !== null &&
    isRareLabel(args as Record<string, unknown>)
  );
}
