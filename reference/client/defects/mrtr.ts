import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/mrtr.ts catch, each breaking one of them. */
export const MRTR_DEFECTS = {
  'retry-same-id': {
    check: 'tools.call.retry-new-id',
    description: 'an MRTR retry reuses the id of the request it retries',
  },
  'requeststate-truncated': {
    check: 'mrtr.client.echo-requeststate',
    description: 'the echoed requestState loses its last character',
  },
  'spurious-requeststate': {
    check: 'mrtr.client.no-spurious-requeststate',
    description: 'an MRTR retry after a result without requestState carries the previous one (or "state")',
  },
  'missing-input-response': {
    check: 'mrtr.client.fulfill-before-retry',
    description: 'an MRTR retry answers only the first key of inputRequests',
  },
  'retry-changes-arguments': {
    check: 'mrtr.client.retry-original',
    description: 'an MRTR retry sends arguments: {} instead of the original ones',
  },
  'cross-uses-requeststate': {
    check: 'mrtr.client.no-cross-use',
    description:
      "the first call of each tool carries the last requestState another tool's input_required result issued",
  },
} as const satisfies Record<string, Defect>;
