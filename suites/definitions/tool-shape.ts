import { isObject } from '../../src/jsonrpc.js';
import type { CheckDefinition } from '../../src/runner/types.js';
import { WIRES } from '../../src/model/wire.js';
import { issuesMessage, listedTools, perTool, toolEvidence, toolSchemaIssues } from '../kit/listed-tools.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { onBothWires } from '../kit/same-sentences.js';
import type { Outcome } from '../../src/model/check.js';

/** Tools whose schema issues were attributed to `check`, one outcome each. */
async function schemaOutcomes(ctx: Parameters<CheckDefinition['run']>[0], check: string, expected: string, checked: string): Promise<Outcome[]> {
  const tools = await listedTools(ctx);
  if (tools.length === 0) return [skip('the server lists no tools')];
  const issues = await toolSchemaIssues(ctx, check);
  if (issues.size === 0) return [pass(`${tools.length} ${checked} checked`)];
  return [...issues].map(([t, list]) => ({ ...fail(issuesMessage(list), expected, toolEvidence(t)), tool: t.label }));
}

export const toolShape: CheckDefinition = {
  id: 'tools.tool.shape',
  keyword: 'schema.json structural rule',
  title: 'Each tool has a string name and well-typed title, description, outputSchema and _meta',
  specRef: 'server/tools#tool',
  area: 'tool-definitions',
  wires: WIRES,
  sentences: onBothWires(
    { ref: 'schema.json#/$defs/Tool/required', text: '["inputSchema","name"]', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Tool/properties/name/type', text: '"string"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Tool/properties/title/type', text: '"string"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Tool/properties/description/type', text: '"string"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Tool/properties/outputSchema/type', text: '"object"', keyword: 'schema.json structural rule' },
  ),
  run(ctx) {
    return schemaOutcomes(
      ctx,
      this.id,
      'name: string (required); title, description: strings; outputSchema: a JSON Schema object; _meta: an object',
      'tool definitions',
    );
  },
};

export const toolDescription: CheckDefinition = {
  id: 'tools.tool.description',
  // The page lists description among a tool's fields without "Optional", but no sentence requires one.
  keyword: 'descriptive',
  title: 'Each tool has a description (a field the tool definition describes)',
  specRef: 'server/tools#tool',
  area: 'tool-definitions',
  wires: WIRES,
  sentences: onBothWires({ ref: 'server/tools#tool', text: 'description: Human-readable description of functionality', keyword: 'descriptive' }),
  run: (ctx) =>
    perTool(
      ctx,
      (t) =>
        typeof t.tool.description === 'string' && t.tool.description.trim() !== ''
          ? undefined
          : fail(
              t.tool.description === undefined ? 'the tool has no description' : 'the description is empty',
              'a human-readable description of what the tool does (the model chooses tools by it)',
            ),
      { checked: 'tool descriptions' },
    ),
};

export const inputSchemaObject: CheckDefinition = {
  id: 'tools.schema.input-valid-object',
  keyword: 'MUST',
  title: 'inputSchema is a JSON Schema object (not null) whose root type is "object"',
  specRef: 'server/tools#tool',
  area: 'input-schema',
  wires: WIRES,
  sentences: onBothWires(
    { ref: 'server/tools#tool', text: 'inputSchema: JSON Schema defining expected parameters … MUST be a valid JSON Schema object (not null)', keyword: 'MUST' },
    { ref: 'schema.json#/$defs/Tool/properties/inputSchema/required', text: '["type"]', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Tool/properties/inputSchema/properties/type/const', text: '"object"', keyword: 'schema.json structural rule' },
  ),
  run(ctx) {
    return schemaOutcomes(ctx, this.id, 'inputSchema: {"type": "object", …} — tool arguments are always JSON objects', 'input schemas');
  },
};

export const annotationTypes: CheckDefinition = {
  id: 'tools.annotations.types',
  keyword: 'schema.json structural rule',
  title: 'Tool annotations are well-typed: the *Hint fields booleans, title a string',
  specRef: 'server/tools#tool',
  area: 'annotations',
  wires: WIRES,
  sentences: onBothWires(
    { ref: 'schema.json#/$defs/ToolAnnotations/properties/readOnlyHint/type', text: '"boolean"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/ToolAnnotations/properties/destructiveHint/type', text: '"boolean"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/ToolAnnotations/properties/idempotentHint/type', text: '"boolean"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/ToolAnnotations/properties/openWorldHint/type', text: '"boolean"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/ToolAnnotations/properties/title/type', text: '"string"', keyword: 'schema.json structural rule' },
  ),
  async run(ctx) {
    const outcomes = await schemaOutcomes(
      ctx,
      this.id,
      'annotations: {title?: string, readOnlyHint?: boolean, destructiveHint?: boolean, idempotentHint?: boolean, openWorldHint?: boolean}',
      'tool annotations',
    );
    const annotated = (await listedTools(ctx)).filter((t) => isObject(t.tool.annotations)).length;
    return outcomes.map((o) =>
      o.status === 'pass'
        ? { ...o, message: `${o.message}; ${annotated} tool(s) carry annotations (hints from the server, untrusted unless the server is)` }
        : o,
    );
  },
};

export const iconShape: CheckDefinition = {
  id: 'icons.shape',
  keyword: 'schema.json structural rule',
  title: 'Tool icons have a URI src, and well-typed mimeType, sizes and theme when present',
  specRef: 'basic/index#icons',
  area: 'icons',
  wires: WIRES,
  sentences: onBothWires(
    { ref: 'schema.json#/$defs/Icon/required', text: '["src"]', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Icon/properties/src/format', text: '"uri"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Icon/properties/mimeType/type', text: '"string"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Icon/properties/sizes/type', text: '"array"', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Icon/properties/theme/enum', text: '["dark","light"]', keyword: 'schema.json structural rule' },
  ),
  async run(ctx) {
    const withIcons = (await listedTools(ctx)).filter((t) => 'icons' in t.tool);
    if (withIcons.length === 0) return [skip('no tool has icons')];
    return schemaOutcomes(ctx, this.id, 'icons: [{src: URI, mimeType?: string, sizes?: [string, …] (e.g. "48x48", "any"), theme?: "light" | "dark"}]', 'icon lists');
  },
};

/** The forms basic/index gives for an icon src. */
const ICON_SRC_FORMS = /^(https?:|data:)/i;

export const iconScheme: CheckDefinition = {
  id: 'icons.safe-scheme',
  covers: ['icons.client.reject-unsafe'],
  // The page says what src can be; the HTTPS-or-data rule and the unsafe-scheme rule bind consumers, not servers.
  keyword: 'descriptive',
  title: 'Tool icon src is an HTTP/HTTPS URL or a data: URI (clients reject unsafe schemes such as javascript: and file:)',
  specRef: 'basic/index#icons',
  area: 'icons',
  wires: WIRES,
  sentences: onBothWires({
    ref: 'basic/index#icons',
    text: 'src: A URI pointing to the icon resource (required). This can be: An HTTP/HTTPS URL pointing to an image file A data URI with base64-encoded image data',
    keyword: 'descriptive',
  }),
  run: (ctx) =>
    perTool(
      ctx,
      (t) => {
        const icons = Array.isArray(t.tool.icons) ? t.tool.icons : [];
        const other = icons
          .map((i) => (isObject(i) && typeof i.src === 'string' ? i.src : undefined))
          .filter((src): src is string => src !== undefined && !ICON_SRC_FORMS.test(src));
        if (other.length === 0) return undefined;
        return fail(
          `icon src ${other.map((s) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s)).join(', ')} is neither an HTTP/HTTPS URL nor a data: URI`,
          'an HTTP/HTTPS URL or a data: URI, the forms the spec gives for src; clients MUST reject unsafe schemes such as javascript:, file:, ftp: and ws:, so such an icon never shows',
        );
      },
      { checked: 'tool icon lists', applies: (t) => Array.isArray(t.tool.icons) && t.tool.icons.length > 0, none: 'no tool has icons' },
    ),
};

export const TOOL_SHAPE_CHECKS = [toolShape, toolDescription, inputSchemaObject, annotationTypes, iconShape, iconScheme] as const;
