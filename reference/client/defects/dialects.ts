import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/dialects.ts catch, each breaking one of them. */
export const DIALECTS_DEFECTS = {
  'draft-07-by-default': {
    check: 'jsonschema.impl.validate-by-dialect',
    description: 'an outputSchema without $schema is validated as draft-07 (which ignores prefixItems)',
    at: {
      callRules: (rules) => {
        rules.validation.defaultDialect = 'draft-07';
      },
    },
  },
  'unknown-dialect-as-2020-12': {
    check: 'jsonschema.impl.unsupported-dialect',
    description: 'an outputSchema whose $schema names an unknown dialect is validated as 2020-12',
    at: {
      callRules: (rules) => {
        rules.validation.unknownDialectAs = '2020-12';
      },
    },
  },
} as const satisfies Record<string, Defect>;
