import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/tool-names.ts catch, each breaking one of them. */
export const TOOL_NAMES_DEFECTS = {
  'tool-names-case-folded': {
    check: 'tools.name.case-sensitive',
    description: 'tools whose names differ only in case are taken for one: only the first is kept',
    at: {
      dropsListedTool: (name, earlierNames) =>
        earlierNames.some((earlier) => earlier.toLowerCase() === name.toLowerCase()),
    },
  },
} as const satisfies Record<string, Defect>;
