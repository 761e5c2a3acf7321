import { CLIENT_INFO, OTHER_PROTOCOL_VERSION } from '../constants.js';
import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/header-mismatch.ts catch, each breaking one of them. */
export const HEADER_MISMATCH_DEFECTS = {
  'no-header-mismatch-refresh': {
    check: 'xmcp.client.mismatch-refresh',
    only: 'http',
    description: 'a HeaderMismatch error (-32020) ends the call: no new listing, no retry',
    at: {
      callRules: (rules) => {
        rules.refreshesOnHeaderMismatch = false;
      },
    },
  },
  'falls-back-on-400': {
    check: 'http.compat.inspect-400',
    only: 'http',
    description:
      'a 400 answer makes it send initialize (2025-11-25) before going on, although the body is a modern error ' +
      '(-32020)',
    at: {
      requestBeforeRelisting: () => ({
        method: 'initialize',
        params: { protocolVersion: OTHER_PROTOCOL_VERSION, capabilities: {}, clientInfo: { ...CLIENT_INFO } },
      }),
    },
  },
} as const satisfies Record<string, Defect>;
