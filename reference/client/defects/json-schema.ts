import type { Defect } from './define.js';
import { fetchNetworkRefs } from './network-refs.js';

/** Defects that the client checks of suites/client/json-schema.ts catch, each breaking one of them. */
export const JSON_SCHEMA_DEFECTS = {
  'permissive-unresolved-ref': {
    check: 'jsonschema.ref.unresolved-reject',
    description: 'an outputSchema with an unresolved $ref is treated as accepting anything',
    at: {
      callRules: (rules) => {
        rules.validation.unresolvedRefRefused = false;
      },
    },
  },
  'fetches-network-ref': {
    check: 'jsonschema.ref.no-network',
    description: "before calling tools, GETs every http(s) $ref found in the listed tools' schemas",
    at: { toolsAdmitted: fetchNetworkRefs },
  },
} as const satisfies Record<string, Defect>;
