import type { Defect } from './define.js';

function firstEntryOnly(responses: Record<string, unknown>): Record<string, unknown> {
  const [first] = Object.entries(responses);
  return first ? { [first[0]]: first[1] } : {};
}

/** Defects that the client checks of suites/client/mrtr.ts catch, each breaking one of them. */
export const MRTR_DEFECTS = {
  'retry-same-id': {
    check: 'tools.call.retry-new-id',
    description: 'an MRTR retry reuses the id of the request it retries',
    at: {
      retryRound: (round, retriedId) => {
        round.id = retriedId;
      },
    },
  },
  'requeststate-truncated': {
    check: 'mrtr.client.echo-requeststate',
    description: 'the echoed requestState loses its last character',
    at: {
      retryRound: (round) => {
        if (round.requestState !== undefined) round.requestState = round.requestState.slice(0, -1);
      },
    },
  },
  'spurious-requeststate': {
    check: 'mrtr.client.no-spurious-requeststate',
    description: 'an MRTR retry after a result without requestState carries the previous one (or "state")',
    at: {
      retryRound: (round) => {
        round.requestState ??= round.lastRequestState ?? 'state';
      },
    },
  },
  'missing-input-response': {
    check: 'mrtr.client.fulfill-before-retry',
    description: 'an MRTR retry answers only the first key of inputRequests',
    at: {
      retryRound: (round) => {
        if (round.inputResponses !== undefined) round.inputResponses = firstEntryOnly(round.inputResponses);
      },
    },
  },
  'retry-changes-arguments': {
    check: 'mrtr.client.retry-original',
    description: 'an MRTR retry sends arguments: {} instead of the original ones',
    at: {
      retryRound: (round) => {
        round.arguments = {};
      },
    },
  },
  'cross-uses-requeststate': {
    check: 'mrtr.client.no-cross-use',
    description:
      "the first call of each tool carries the last requestState another tool's input_required result issued",
    at: {
      firstRound: (round, lastIssued) => {
        if (lastIssued !== undefined) round.requestState = lastIssued;
      },
    },
  },
} as const satisfies Record<string, Defect>;
