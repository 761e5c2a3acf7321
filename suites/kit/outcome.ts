import type { Evidence, Outcome } from '../../src/model/check.js';
import type { Exchange } from '../../src/model/exchange.js';

export const pass = (message: string, evidence?: Evidence[]): Outcome => ({ status: 'pass', message, evidence });
export const skip = (message: string): Outcome => ({ status: 'skip', message });
export const fail = (message: string, expected: string, evidence?: Evidence[]): Outcome => ({
  status: 'fail',
  message,
  expected,
  evidence,
});
export const note = (text: string, data?: unknown): Evidence =>
  data === undefined ? { note: text } : { note: text, data };

/** Why a tool is not called again: one of its calls timed out earlier in the audit (its timeout is paid once). */
export const timedOutReason = (exchange: Exchange): string =>
  `a call of this tool timed out earlier in this audit (exchange #${exchange.seq}: ` +
  `${exchange.failure?.message ?? 'no answer'}); a tool that timed out is not called again`;
