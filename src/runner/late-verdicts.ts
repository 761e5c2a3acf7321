import { lateAnswer } from '../transport/late-answers.js';
import type { Evidence, Outcome } from '../model/check.js';
import type { Exchange } from '../model/exchange.js';

const isExchange = (evidence: Evidence): evidence is Exchange =>
  typeof evidence === 'object' && evidence !== null && 'seq' in evidence && 'request' in evidence;

/**
 * A fail or warning whose evidence holds a request that went unanswered yet was answered within its grace is a skip:
 * the answer was late, not missing, and --timeout is our setting, never the target's fault. Waits out the grace of each
 * such request first (a bounded wait, paid only by a verdict that rests on a timeout).
 */
export async function excuseLateAnswers(outcomes: Outcome[]): Promise<Outcome[]> {
  return Promise.all(
    outcomes.map(async (outcome): Promise<Outcome> => {
      if (outcome.status !== 'fail' && outcome.status !== 'warn') return outcome;
      const unanswered = (outcome.evidence ?? []).filter(isExchange).filter((e) => e.failure !== undefined);
      if (unanswered.length === 0) return outcome;
      const late = (await Promise.all(unanswered.map(lateAnswer))).find((answer) => answer !== undefined);
      if (!late) return outcome;
      const when =
        late.endedOn === 'timeout'
          ? `answered after ${late.afterMs} ms, above the ${late.timeoutMs} ms it was given: late, not missing, ` +
            `so not judged (a longer --timeout would judge it)`
          : `answered after ${late.afterMs} ms, once it had written lines that are not JSON-RPC: late, not ` +
            `missing, so not judged`;
      return {
        status: 'skip',
        message: `${when}; without that answer it read: ${outcome.message}`,
        ...(outcome.evidence ? { evidence: outcome.evidence } : {}),
        ...(outcome.tool ? { tool: outcome.tool } : {}),
      };
    }),
  );
}
