import { defineDefects } from './define.js';

/** The hook of a search defect: the server adds its tool of this name (defects/search-tools.ts). */
const addsTool =
  (name: string) =>
  (names: string[]): void => {
    names.push(name);
  };

/** Defects that the checks of suites/property/ catch, each breaking one of them. */
export const PROPERTY_DEFECTS = defineDefects([
  {
    name: 'rare-internal-error',
    breaks: 'tools.err.tool-errors-in-result.property',
    description:
      'adds a read-only tool format_label that answers -32603 for one rare valid input: style "code" with an ' +
      'empty text',
    at: { addedTools: addsTool('format_label') },
  },
  {
    name: 'lenient-missing-required',
    breaks: 'tools.err.execution-errors.property',
    description:
      'adds a read-only tool lookup_code whose required "code" may be left out, silently, when mode is "lenient"',
    at: {
      addedTools: addsTool('lookup_code'),
      skipsInputCheck: (name, args) =>
        name === 'lookup_code' && args.mode === 'lenient' && !('code' in args) ? true : undefined,
    },
  },
  {
    name: 'rare-output-mismatch',
    breaks: 'tools.output.conform.property',
    description:
      'adds a read-only tool text_stats whose structuredContent count is a string ("3 lines") when unit is "lines"',
    at: { addedTools: addsTool('text_stats') },
  },
  {
    name: 'rare-integer-output-mismatch',
    breaks: 'tools.output.conform.property',
    description:
      'adds a read-only tool offset_reading whose structuredContent value is a string when the reading is an ' +
      'integer with |reading| % 7 == 3 and the offset is negative',
    at: { addedTools: addsTool('offset_reading') },
  },
]);
