import type { CallSeams } from './seams/calls.js';
import type { HandlerSeams } from './seams/handler.js';
import type { ListingSeams } from './seams/listing.js';
import type { TransportSeams } from './seams/transports.js';

/**
 * The places where the reference server lets a defect in. A seam is named for what the server has just made or is
 * about to decide, and its arguments are plain data (this folder imports none of the server's modules that carry an
 * ActiveDefects, so that no import circle forms). A defect's hook spoils what it receives in place, or returns what
 * the server uses instead; the server calls the hooks of every active defect in table order and takes the first
 * result that is not undefined (`./active.ts`).
 */
export interface Seams extends HandlerSeams, ListingSeams, CallSeams, TransportSeams {}
