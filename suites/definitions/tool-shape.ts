import { defineCheck } from '../kit/define-check.js';
import {
  type AttributedIssue,
  type CheckDefinition,
  isObject,
  type Outcome,
  type SpecSentence,
  type Revision,
  REVISIONS,
} from '../kit/index.js';
import { issuesMessage, listedTools, perTool, toolEvidence, toolSchemaIssues } from '../kit/listed-tools.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { fromRevision, perRevision, schemaRule, since } from '../kit/same-sentences.js';
import { hiddenText } from './hidden-text.js';

/** A schema.json rule of a listed tool, and where our wire schema checks it (Ajv's schemaPath below one tool). */
export interface ToolRule {
  at: string;
  sentence: SpecSentence;
}

/** Where the wire schema of a tools/list result validates one tool. */
const TOOL_SCHEMA_PATH = '#/properties/tools/items';

/**
 * Issues grouped by the rule they break; an issue no rule names (none should exist, see the tests) rests on the
 * governing sentence.
 */
function byRule(
  issues: readonly AttributedIssue[],
  rules: readonly ToolRule[],
): { rule?: ToolRule; issues: AttributedIssue[] }[] {
  const groups = new Map<ToolRule | undefined, AttributedIssue[]>();
  for (const issue of issues) {
    const rule = rules.find((r) => decodeURIComponent(issue.schemaPath) === TOOL_SCHEMA_PATH + r.at);
    groups.set(rule, [...(groups.get(rule) ?? []), issue]);
  }
  return [...groups].map(([rule, list]) => ({ ...(rule ? { rule } : {}), issues: list }));
}

/**
 * Tools whose schema issues were attributed to `check`, one outcome each (or, given its rules, one per tool and rule
 * broken).
 */
async function schemaOutcomes(
  ctx: Parameters<CheckDefinition['run']>[0],
  check: string,
  expected: string,
  checked: string,
  rules?: Readonly<Record<Revision, readonly ToolRule[]>>,
): Promise<Outcome[]> {
  const tools = await listedTools(ctx);
  if (tools.length === 0) return [skip('the server lists no tools')];
  const issues = await toolSchemaIssues(ctx, check);
  if (issues.size === 0) return [pass(`${tools.length} ${checked} checked`)];
  return [...issues].flatMap(([t, list]) =>
    (rules ? byRule(list, rules[ctx.revision]) : [{ issues: list }]).map(({ rule, issues: broken }) => ({
      ...fail(issuesMessage(broken), expected, toolEvidence(t)),
      ...(rule ? { sentence: rule.sentence } : {}),
      tool: t.label,
    })),
  );
}

/**
 * A structural rule of a schema.json whose definitions sit under `definitions` (before 2025-11-25, draft-07) or
 * `$defs`; `ref` (below them) defaults to the Tool keyword at the same place.
 */
const ruleUnder =
  (definitions: 'definitions' | '$defs') =>
  (at: string, text: string, ref = `Tool${at}`): ToolRule => ({
    at,
    sentence: { ref: `schema.json#/${definitions}/${ref}`, text, keyword: 'schema.json structural rule' },
  });

const toolRule = ruleUnder('$defs');
const draft07ToolRule = ruleUnder('definitions');

const SHARED_TOOL_RULES = [
  toolRule('/required', '["inputSchema","name"]'),
  toolRule('/type', '"object"'),
  toolRule('/properties/name/type', '"string"'),
  toolRule('/properties/title/type', '"string"'),
  toolRule('/properties/description/type', '"string"'),
  toolRule('/properties/outputSchema/type', '"object"'),
  toolRule('/properties/outputSchema/properties/$schema/type', '"string"'),
];

/**
 * A tool's name, description and input schema, since 2024-11-05 (annotations, from 2025-03-26, have a check of their
 * own).
 */
const FIRST_TOOL_RULES = [
  draft07ToolRule('/required', '["inputSchema","name"]'),
  draft07ToolRule('/type', '"object"'),
  draft07ToolRule('/properties/name/type', '"string"'),
  draft07ToolRule('/properties/description/type', '"string"'),
];

/**
 * From 2025-06-18 to 2025-11-25 an output schema is an object schema with an object `properties` and a string-array
 * `required`.
 */
const outputObjectSchemaRules = (rule: typeof toolRule) => [
  rule('/properties/outputSchema/required', '["type"]'),
  rule('/properties/outputSchema/properties/type/const', '"object"'),
  rule('/properties/outputSchema/properties/properties/type', '"object"'),
  rule('/properties/outputSchema/properties/properties/additionalProperties/type', '"object"'),
  rule('/properties/outputSchema/properties/required/type', '"array"'),
  rule('/properties/outputSchema/properties/required/items/type', '"string"'),
];

/**
 * The rules of a Tool object that tools.tool.shape owns (inputSchema, annotations and icons have checks of their own).
 */
export const TOOL_SHAPE_RULES: Readonly<Record<Revision, readonly ToolRule[]>> = {
  '2026-07-28': [...SHARED_TOOL_RULES, toolRule('/properties/_meta/type', '"object"', 'MetaObject/type')],
  '2025-11-25': [
    ...SHARED_TOOL_RULES,
    toolRule('/properties/_meta/type', '"object"'),
    ...outputObjectSchemaRules(toolRule),
    toolRule('/properties/execution/type', '"object"', 'ToolExecution/type'),
    toolRule(
      '/properties/execution/properties/taskSupport/type',
      '"string"',
      'ToolExecution/properties/taskSupport/type',
    ),
    toolRule(
      '/properties/execution/properties/taskSupport/enum',
      '["forbidden","optional","required"]',
      'ToolExecution/properties/taskSupport/enum',
    ),
  ],
  // title, outputSchema and _meta arrive with 2025-06-18.
  '2025-06-18': [
    ...FIRST_TOOL_RULES,
    draft07ToolRule('/properties/title/type', '"string"'),
    draft07ToolRule('/properties/outputSchema/type', '"object"'),
    ...outputObjectSchemaRules(draft07ToolRule),
    draft07ToolRule('/properties/_meta/type', '"object"'),
  ],
  '2025-03-26': FIRST_TOOL_RULES,
  '2024-11-05': FIRST_TOOL_RULES,
};

export const toolShape: CheckDefinition = defineCheck({
  id: 'tools.tool.shape',
  title: 'Each tool has a string name and well-typed title, description, outputSchema and _meta',
  specRef: 'server/tools#tool',
  area: 'tool-definitions',
  sentences: Object.fromEntries(REVISIONS.map((wire) => [wire, TOOL_SHAPE_RULES[wire].map((r) => r.sentence)])),
  run(ctx) {
    return schemaOutcomes(
      ctx,
      this.id,
      'name: string (required); description: a string; from 2025-06-18 on, title: a string, outputSchema: a ' +
        'JSON Schema object (on 2025-06-18 and 2025-11-25 one whose type is "object"), _meta: an object; ' +
        'execution.taskSupport (2025-11-25): "forbidden", "optional" or "required"',
      'tool definitions',
      TOOL_SHAPE_RULES,
    );
  },
});

export const toolDescription: CheckDefinition = defineCheck({
  id: 'tools.tool.description',
  title: 'Each tool has a description (a field the tool definition describes)',
  area: 'tool-definitions',
  sentences: fromRevision('2024-11-05', {
    ref: 'server/tools#tool',
    text: 'description: Human-readable description of functionality',
    keyword: 'descriptive',
  }),
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
});

export const inputSchemaObject: CheckDefinition = defineCheck({
  id: 'tools.schema.input-valid-object',
  title: 'inputSchema is a JSON Schema object (not null) whose root type is "object"',
  area: 'input-schema',
  // Before 2025-11-25 the page only names inputSchema a JSON Schema; schema.json requires an object with type "object".
  sentences: perRevision(since('2024-11-05'), (wire) => [
    since('2025-11-25').includes(wire)
      ? {
          ref: 'server/tools#tool',
          text: 'inputSchema: JSON Schema defining expected parameters … MUST be a valid JSON Schema object (not null)',
          keyword: 'MUST',
        }
      : schemaRule(wire, 'Tool/properties/inputSchema/type', '"object"'),
    schemaRule(wire, 'Tool/properties/inputSchema/required', '["type"]'),
    schemaRule(wire, 'Tool/properties/inputSchema/properties/type/const', '"object"'),
  ]),
  run(ctx) {
    return schemaOutcomes(
      ctx,
      this.id,
      'inputSchema: {"type": "object", …} — tool arguments are always JSON objects',
      'input schemas',
    );
  },
});

export const annotationTypes: CheckDefinition = defineCheck({
  id: 'tools.annotations.types',
  title: 'Tool annotations are well-typed: the *Hint fields booleans, title a string',
  specRef: 'server/tools#tool',
  area: 'annotations',
  // Tool annotations arrived with 2025-03-26.
  sentences: perRevision(since('2025-03-26'), (wire) => [
    ...['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].map((hint) =>
      schemaRule(wire, `ToolAnnotations/properties/${hint}/type`, '"boolean"'),
    ),
    schemaRule(wire, 'ToolAnnotations/properties/title/type', '"string"'),
  ]),
  async run(ctx) {
    const outcomes = await schemaOutcomes(
      ctx,
      this.id,
      'annotations: {title?: string, readOnlyHint?: boolean, destructiveHint?: boolean, idempotentHint?: ' +
        'boolean, openWorldHint?: boolean}',
      'tool annotations',
    );
    const annotated = (await listedTools(ctx)).filter((t) => isObject(t.tool.annotations)).length;
    return outcomes.map((o) =>
      o.status === 'pass'
        ? {
            ...o,
            message:
              `${o.message}; ${annotated} tool(s) carry annotations (hints from the server, untrusted unless ` +
              `the server is)`,
          }
        : o,
    );
  },
});

export const iconShape: CheckDefinition = defineCheck({
  id: 'icons.shape',
  title: 'Tool icons have a URI src, and well-typed mimeType, sizes and theme when present',
  specRef: 'basic/index#icons',
  area: 'icons',
  // Icons arrived with 2025-11-25.
  sentences: fromRevision(
    '2025-11-25',
    { ref: 'schema.json#/$defs/Icon/required', text: '["src"]', keyword: 'schema.json structural rule' },
    { ref: 'schema.json#/$defs/Icon/properties/src/format', text: '"uri"', keyword: 'schema.json structural rule' },
    {
      ref: 'schema.json#/$defs/Icon/properties/mimeType/type',
      text: '"string"',
      keyword: 'schema.json structural rule',
    },
    { ref: 'schema.json#/$defs/Icon/properties/sizes/type', text: '"array"', keyword: 'schema.json structural rule' },
    {
      ref: 'schema.json#/$defs/Icon/properties/theme/enum',
      text: '["dark","light"]',
      keyword: 'schema.json structural rule',
    },
  ),
  async run(ctx) {
    const withIcons = (await listedTools(ctx)).filter((t) => 'icons' in t.tool);
    if (withIcons.length === 0) return [skip('no tool has icons')];
    return schemaOutcomes(
      ctx,
      this.id,
      'icons: [{src: URI, mimeType?: string, sizes?: [string, …] (e.g. "48x48", "any"), theme?: "light" | "dark"}]',
      'icon lists',
    );
  },
});

/** The forms basic/index gives for an icon src. */
const ICON_SRC_FORMS = /^(https?:|data:)/i;

export const iconScheme: CheckDefinition = defineCheck({
  id: 'icons.safe-scheme',
  covers: ['icons.client.reject-unsafe'],
  title:
    'Tool icon src is an HTTP/HTTPS URL or a data: URI (clients reject unsafe schemes such as javascript: and file:)',
  area: 'icons',
  sentences: fromRevision('2025-11-25', {
    ref: 'basic/index#icons',
    text:
      'src: A URI pointing to the icon resource (required). This can be: An HTTP/HTTPS URL pointing to an image ' +
      'file A data URI with base64-encoded image data',
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
          `icon src ${other.map((s) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s)).join(', ')} ` +
            `is neither an HTTP/HTTPS URL nor a data: URI`,
          'an HTTP/HTTPS URL or a data: URI, the forms the spec gives for src; clients MUST reject unsafe ' +
            'schemes such as javascript:, file:, ftp: and ws:, so such an icon never shows',
        );
      },
      {
        checked: 'tool icon lists',
        applies: (t) => Array.isArray(t.tool.icons) && t.tool.icons.length > 0,
        none: 'no tool has icons',
      },
    ),
});

export const TOOL_SHAPE_CHECKS = [toolShape, toolDescription, hiddenText, inputSchemaObject, annotationTypes] as const;

export const ICON_CHECKS = [iconShape, iconScheme] as const;
