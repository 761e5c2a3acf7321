import { defineCheck } from '../kit/define-check.js';
import type { CheckDefinition } from '../kit/index.js';
import { perTool } from '../kit/listed-tools.js';
import { fail } from '../kit/outcome.js';
import { fromRevision } from '../kit/same-sentences.js';

const NAME_CHARS = /^[A-Za-z0-9_.-]*$/;
const named = {
  applies: (t: { tool: Record<string, unknown> }) => typeof t.tool.name === 'string',
  none: 'no tool has a string name',
};

// server/tools § Tool Names arrived with 2025-11-25: earlier revisions state no rule for a name's length or characters.
export const nameLength: CheckDefinition = defineCheck({
  id: 'tools.name.length',
  title: 'Tool names are 1 to 128 characters long',
  area: 'tool-names',
  sentences: fromRevision('2025-11-25', {
    ref: 'server/tools#tool-names',
    text: 'Tool names SHOULD be between 1 and 128 characters in length (inclusive).',
    keyword: 'SHOULD',
  }),
  run: (ctx) =>
    perTool(
      ctx,
      (t) => {
        const length = [...(t.tool.name as string)].length;
        if (length >= 1 && length <= 128) return undefined;
        return fail(`the name is ${length} characters long`, 'between 1 and 128 characters (inclusive)');
      },
      { checked: 'tool names', ...named },
    ),
});

export const nameCharset: CheckDefinition = defineCheck({
  id: 'tools.name.charset',
  covers: ['tools.name.no-special'],
  title: 'Tool names use only A-Z a-z 0-9 _ - . (no spaces, commas or other special characters)',
  area: 'tool-names',
  sentences: fromRevision(
    '2025-11-25',
    {
      ref: 'server/tools#tool-names',
      text:
        'The following SHOULD be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), ' +
        'digits (0-9), underscore (\\_), hyphen (-), and dot (.)',
      keyword: 'SHOULD',
    },
    {
      ref: 'server/tools#tool-names',
      text: 'Tool names SHOULD NOT contain spaces, commas, or other special characters.',
      keyword: 'SHOULD NOT',
    },
  ),
  run: (ctx) =>
    perTool(
      ctx,
      (t) => {
        const name = t.tool.name as string;
        if (NAME_CHARS.test(name)) return undefined;
        const bad = [...new Set([...name].filter((c) => !NAME_CHARS.test(c)))];
        return fail(
          `the name ${JSON.stringify(name)} contains ${bad.map((c) => JSON.stringify(c)).join(', ')}`,
          'only ASCII letters, digits, underscore, hyphen and dot (over HTTP, other names travel ' +
            'Base64-encoded in Mcp-Name)',
        );
      },
      { checked: 'tool names', ...named },
    ),
});

export const TOOL_NAME_CHECKS = [nameLength, nameCharset] as const;
