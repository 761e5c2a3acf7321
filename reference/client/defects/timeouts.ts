import { REQUEST_TIMEOUT_MS } from '../constants.js';
import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/timeouts.ts catch, each breaking one of them. */
export const TIMEOUTS_DEFECTS = {
  'no-call-timeout': {
    check: 'tools.sec.client-timeouts',
    description: 'ignores the call timeout of the driver contract: waits up to 10 s for every answer',
    at: {
      requestRules: (rules) => {
        rules.timeoutMs = REQUEST_TIMEOUT_MS;
      },
    },
  },
  'timeout-without-cancel': {
    check: 'cancel.timeout-cancel',
    only: 'stdio',
    description: 'a request that times out is given up without notifications/cancelled',
    at: {
      requestRules: (rules) => {
        rules.cancelsOnTimeout = false;
      },
    },
  },
  'cancels-unknown-request': {
    check: 'cancel.ref-valid',
    description: 'after listing, sends notifications/cancelled for the request id "reference-client-never-issued"',
    at: {
      messagesAfterListing: (messages) => {
        messages.push({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: {
            requestId: 'reference-client-never-issued',
            reason: 'reference-client defect cancels-unknown-request',
          },
        });
      },
    },
  },
} as const satisfies Record<string, Defect>;
