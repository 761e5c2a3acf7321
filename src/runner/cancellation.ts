import type { Exchange } from '../model/exchange.js';
import { LATEST_REVISION, type Revision } from '../core/revision.js';

/**
 * How long after a cancellation the audit listens for more about the cancelled request; the read marker sent behind it
 * must be answered within it, too.
 */
export const CANCEL_WATCH_MS = 3000;

/**
 * The request sent right behind each notifications/cancelled over one channel (its read marker). A server reads its
 * stdin in order, so the marker's answer shows it has read the cancellation. Every server of the wire answers it at
 * once, and it changes nothing: server/discover ("Servers MUST implement it"), ping ("The receiver MUST respond
 * promptly").
 */
export const readMarkerMethod = (wire: Revision): string => (wire === LATEST_REVISION ? 'server/discover' : 'ping');

/** A notifications/cancelled the audit sent for a call that outlived --timeout (one channel), and its read marker. */
export interface SentCancellation {
  /** The call that timed out. */
  call: Exchange;
  notice: Exchange;
  /** Settles when the marker is answered, times out or fails; undefined when it could not be sent at all. */
  marker: Promise<Exchange | undefined>;
}
