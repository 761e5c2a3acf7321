/**
 * Independent connections that several checks share (over stdio each one is another process of the target, so they
 * are few). Each key says what its users agree to do with it.
 */

/** Only ever walks tools/list, never calls a tool: compared with the audit's connection, before and after its calls. */
export const LISTING_ONLY = 'listing-only';

/** Walks tools/list in the main phase; a final-phase check then closes its stdin and watches the process exit. */
export const CLOSED_LAST = 'closed-last';
