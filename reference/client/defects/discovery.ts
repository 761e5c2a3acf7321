import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/discovery.ts catch, each breaking one of them. */
export const DISCOVERY_DEFECTS = {
  'no-discover': {
    check: 'version.matrix.stdio-discover-first',
    description: 'sends no server/discover: the first request is tools/list',
    at: {
      sessionRules: (rules) => {
        rules.discovers = false;
      },
    },
  },
} as const satisfies Record<string, Defect>;
