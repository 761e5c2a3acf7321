import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, compareRevisions, isObject, type SpecSentence } from '../kit/index.js';
import { perTool } from '../kit/listed-tools.js';
import { fail } from '../kit/outcome.js';
import { perRevision, since } from '../kit/same-sentences.js';
import { codePointLabel, escapeHidden, excerptAround, hiddenChars, tagText, type HiddenChar } from './hidden-chars.js';

/**
 * The human in the loop sees a tool through its name, title and descriptions; characters that hide text from that
 * person (while the model still reads them) defeat the UI that makes clear what the model is given. The tools page asks
 * this of applications, and describes the fields as human-readable, so a finding can only warn.
 */
const SHOW_EXPOSED: SpecSentence = {
  ref: 'server/tools#user-interaction-model',
  text: 'Applications SHOULD: … Provide UI that makes clear which tools are being exposed to the AI model',
  keyword: 'SHOULD',
};
const DESCRIPTION_READABLE: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'description: Human-readable description of functionality',
  keyword: 'descriptive',
};
/** `title` arrived with 2025-06-18. */
const TITLE_READABLE: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'title: Optional human-readable name of the tool for display purposes.',
  keyword: 'descriptive',
};

/** Where a schema's titles and descriptions are looked for: deep enough for real schemas, bounded for hostile ones. */
const MAX_SCHEMA_DEPTH = 24;
const MAX_SCHEMA_NODES = 5_000;
/** Hidden characters named per field; the rest are counted. */
const NAMED_PER_FIELD = 5;
const MAX_TAG_TEXT = 80;
/** Fields described per tool; the rest are counted. */
const DESCRIBED_FIELDS = 5;

interface FieldText {
  field: string;
  text: string;
}

const SCHEMA_TEXT_KEYS = new Set(['title', 'description']);

/**
 * Every string `title` and `description` of a JSON Schema, with its path (e.g.
 * `inputSchema.properties.query.description`).
 */
function schemaTexts(schema: unknown, root: string): FieldText[] {
  const out: FieldText[] = [];
  let nodes = 0;
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth > MAX_SCHEMA_DEPTH || nodes >= MAX_SCHEMA_NODES) return;
    nodes += 1;
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}.${key}`;
      if (typeof value === 'string') {
        if (SCHEMA_TEXT_KEYS.has(key)) out.push({ field: at, text: value });
      } else {
        visit(value, at, depth + 1);
      }
    }
  };
  visit(schema, root, 0);
  return out;
}

/** The fields a person reads when deciding about a tool. */
export function toolTexts(tool: Record<string, unknown>): FieldText[] {
  const texts: FieldText[] = [];
  for (const field of ['name', 'title', 'description'] as const) {
    const value = tool[field];
    if (typeof value === 'string') texts.push({ field, text: value });
  }
  if (isObject(tool.annotations) && typeof tool.annotations.title === 'string')
    texts.push({ field: 'annotations.title', text: tool.annotations.title });
  texts.push(...schemaTexts(tool.inputSchema, 'inputSchema'), ...schemaTexts(tool.outputSchema, 'outputSchema'));
  return texts;
}

function describeField({ field, text }: FieldText, found: readonly HiddenChar[]): string {
  const named = found
    .slice(0, NAMED_PER_FIELD)
    .map((c) => `${codePointLabel(c.codePoint)} ${c.name} (${c.kind}) at character ${c.position}`);
  const more = found.length > NAMED_PER_FIELD ? ` and ${found.length - NAMED_PER_FIELD} more` : '';
  const spelled = tagText(found);
  const tags =
    spelled === undefined
      ? ''
      : `; its tag characters spell "` +
        `${escapeHidden(spelled.length > MAX_TAG_TEXT ? `${spelled.slice(0, MAX_TAG_TEXT)}…` : spelled)}"`;
  return `${field} has ${named.join(', ')}${more}${tags} — shown escaped: "${excerptAround(text, found[0]!.position)}"`;
}

export const hiddenText: CheckDefinition = defineCheck({
  id: 'tools.tool.hidden-text',
  covers: ['tools.ui.show-exposed'],
  title:
    'Tool names, titles and descriptions hide no text: no bidi controls, zero-width or tag characters, ' +
    'terminal escapes',
  area: 'tool-definitions',
  sentences: perRevision(since('2024-11-05'), (wire) => [
    SHOW_EXPOSED,
    DESCRIPTION_READABLE,
    ...(compareRevisions(wire, '2025-06-18') >= 0 ? [TITLE_READABLE] : []),
  ]),
  run: (ctx) =>
    perTool(
      ctx,
      (t) => {
        const hits = toolTexts(t.tool).flatMap((text) => {
          const found = hiddenChars(text.text);
          return found.length > 0 ? [{ text, found }] : [];
        });
        if (hits.length === 0) return undefined;
        const name = typeof t.tool.name === 'string' ? `"${escapeHidden(t.tool.name)}"` : t.label;
        return fail(
          `tool ${name}: ${hits
            .slice(0, DESCRIBED_FIELDS)
            .map((h) => describeField(h.text, h.found))
            .join('; ')}${hits.length > DESCRIBED_FIELDS ? `; and ${hits.length - DESCRIBED_FIELDS} more fields` : ''}`,
          'names, titles and descriptions in visible text, as a person reviewing the tool sees what the model ' +
            'reads: no bidi controls, zero-width characters, Unicode tag characters or terminal control ' +
            'characters',
        );
      },
      { checked: 'tool definitions (names, titles, descriptions, schema titles and descriptions)' },
    ),
});
