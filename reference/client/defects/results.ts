import type { Defect } from './define.js';

/** HeaderMismatch before the 2026-07-28 renumbering (now -32020): a legacy code, with no meaning of its own now. */
const FORMER_HEADER_MISMATCH = -32001;

/** Defects that the client checks of suites/client/results.ts catch, each breaking one of them. */
export const RESULTS_DEFECTS = {
  'legacy-code-as-header-mismatch': {
    check: 'err.legacy.no-meaning',
    description:
      'an error -32001 (HeaderMismatch before the renumbering) makes it re-list the tools and retry the call',
    at: { relistsAfterError: (code) => code === FORMER_HEADER_MISMATCH },
  },
  'accepts-unknown-resulttype': {
    check: 'base.resulttype.unknown-invalid',
    description: 'a tools/call result with an unknown resultType is printed as a result',
    at: {
      callRules: (rules) => {
        rules.unknownResultTypeRefused = false;
      },
    },
  },
  'no-output-validation': {
    check: 'tools.output.client-validate',
    description:
      'structuredContent is not validated against outputSchema (a schema that does not compile is still an error)',
    at: {
      callRules: (rules) => {
        rules.validation.checksInstance = false;
      },
    },
  },
} as const satisfies Record<string, Defect>;
