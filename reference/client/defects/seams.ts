import type { CallSeams } from './seams/calls.js';
import type { SessionSeams } from './seams/session.js';

/**
 * The places where the reference client lets a defect in. A seam is named for what the client has just made or is
 * about to decide, and its arguments are plain data (this folder imports none of the client's modules that carry the
 * active defects, so that no import circle forms). A defect's hook spoils what it receives in place, or returns what
 * the client uses instead; the client calls the hooks of every active defect in table order and takes the first
 * result that is not undefined (`reference/kit/hooks.ts`).
 */
export interface ClientSeams extends SessionSeams, CallSeams {}
