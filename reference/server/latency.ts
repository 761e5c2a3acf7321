import type { Reply } from './reply.js';

/** Benchmarks: how late tools/call answers are sent (calls overlap, as tools waiting on I/O do). */
export interface AnswerLatency {
  /** Every tools/call answer. */
  toolLatencyMs?: number;
  /**
   * Added for a tools/call answered with an error (a JSON-RPC error or an isError result): a tool whose failures wait
   * on a remote API.
   */
  errorLatencyMs?: number;
}

function isErrorAnswer(reply: Reply): boolean {
  if (reply.kind !== 'send') return false;
  const last = reply.messages[reply.messages.length - 1] as
    { error?: unknown; result?: { isError?: unknown } } | undefined;
  return last?.error !== undefined || last?.result?.isError === true;
}

/** How long to hold this reply to a message with this method: 0 for anything but a tools/call answer. */
export function answerDelayMs(method: string, reply: Reply, latency: AnswerLatency): number {
  if (method !== 'tools/call' || reply.kind !== 'send') return 0;
  return (latency.toolLatencyMs ?? 0) + (isErrorAnswer(reply) ? (latency.errorLatencyMs ?? 0) : 0);
}
