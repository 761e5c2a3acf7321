import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/progress.ts catch, each breaking one of them. */
export const PROGRESS_DEFECTS = {
  'fractional-progress-token': {
    check: 'progress.token-type',
    description: 'the first tools/call carries progressToken 1.5',
    at: {
      firstCall: (first) => {
        first.progressToken = 1.5;
      },
    },
  },
  'reused-progress-token': {
    check: 'progress.token-unique',
    description: 'sends the first two tools/call requests concurrently with the same progressToken',
    at: {
      concurrentCalls: (shared, fresh) => {
        shared.progressToken = fresh.progressToken();
        return true;
      },
    },
  },
} as const satisfies Record<string, Defect>;
