import type { Evidence, Outcome } from '../src/runner/types.js';

export const pass = (message: string, evidence?: Evidence[]): Outcome => ({ status: 'pass', message, evidence });
export const skip = (message: string): Outcome => ({ status: 'skip', message });
export const fail = (message: string, expected: string, evidence?: Evidence[]): Outcome => ({
  status: 'fail',
  message,
  expected,
  evidence,
});
export const note = (text: string, data?: unknown): Evidence => (data === undefined ? { note: text } : { note: text, data });
