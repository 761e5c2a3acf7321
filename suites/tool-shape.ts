import { isObject } from '../src/jsonrpc.js';
import type { CheckDefinition } from '../src/runner/types.js';
import { WIRES } from '../src/runner/types.js';
import { issuesMessage, listedTools, perTool, toolEvidence, toolSchemaIssues } from './listed-tools.js';
import { fail, pass, skip } from './outcome.js';
import type { Outcome } from '../src/runner/types.js';

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
  keyword: 'MUST',
  title: 'Each tool has a string name and well-typed title, description, outputSchema and _meta',
  specRef: 'server/tools#tool',
  area: 'tool-definitions',
  wires: WIRES,
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
  keyword: 'SHOULD',
  title: 'Each tool has a description',
  specRef: 'server/tools#tool',
  area: 'tool-definitions',
  wires: WIRES,
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
  run(ctx) {
    return schemaOutcomes(ctx, this.id, 'inputSchema: {"type": "object", …} — tool arguments are always JSON objects', 'input schemas');
  },
};

export const annotationTypes: CheckDefinition = {
  id: 'tools.annotations.types',
  keyword: 'MUST',
  title: 'Tool annotations are well-typed: the *Hint fields booleans, title a string',
  specRef: 'server/tools#tool',
  area: 'annotations',
  wires: WIRES,
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
  keyword: 'MUST',
  title: 'Tool icons have a URI src, and well-formed mimeType, sizes and theme when present',
  specRef: 'basic/index#icons',
  area: 'icons',
  wires: WIRES,
  async run(ctx) {
    const withIcons = (await listedTools(ctx)).filter((t) => 'icons' in t.tool);
    if (withIcons.length === 0) return [skip('no tool has icons')];
    return schemaOutcomes(ctx, this.id, 'icons: [{src: URI, mimeType?: string, sizes?: ["48x48" | "any", …], theme?: "light" | "dark"}]', 'icon lists');
  },
};

export const iconScheme: CheckDefinition = {
  id: 'icons.safe-scheme',
  covers: ['icons.client.reject-unsafe'],
  keyword: 'SHOULD',
  title: 'Tool icon URIs use https: or data: (clients must reject other schemes)',
  specRef: 'basic/index#icons',
  area: 'icons',
  wires: WIRES,
  run: (ctx) =>
    perTool(
      ctx,
      (t) => {
        const icons = Array.isArray(t.tool.icons) ? t.tool.icons : [];
        const unsafe = icons
          .map((i) => (isObject(i) && typeof i.src === 'string' ? i.src : undefined))
          .filter((src): src is string => src !== undefined && !/^(https:|data:)/i.test(src));
        if (unsafe.length === 0) return undefined;
        return fail(
          `icon src ${unsafe.map((s) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s)).join(', ')} is neither https: nor data:`,
          'https: or data: URIs; clients MUST reject javascript:, file:, ftp:, ws: and other schemes, so such an icon never shows',
        );
      },
      { checked: 'tool icon lists', applies: (t) => Array.isArray(t.tool.icons) && t.tool.icons.length > 0, none: 'no tool has icons' },
    ),
};

export const TOOL_SHAPE_CHECKS = [toolShape, toolDescription, inputSchemaObject, annotationTypes, iconShape, iconScheme] as const;
