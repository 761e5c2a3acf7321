import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/results.ts catch, each breaking one of them. */
export const RESULTS_DEFECTS = {
  'legacy-code-as-header-mismatch': {
    check: 'err.legacy.no-meaning',
    description:
      'an error -32001 (HeaderMismatch before the renumbering) makes it re-list the tools and retry the call',
  },
  'accepts-unknown-resulttype': {
    check: 'base.resulttype.unknown-invalid',
    description: 'a tools/call result with an unknown resultType is printed as a result',
  },
  'no-output-validation': {
    check: 'tools.output.client-validate',
    description:
      'structuredContent is not validated against outputSchema (a schema that does not compile is still an error)',
  },
} as const satisfies Record<string, Defect>;
