/**
 * Independent connections that several checks share (over stdio each one is another process of the target, so they
 * are few). Each key says what its users agree to do with it.
 */

/**
 * Only ever walks tools/list, never calls a tool: compared with the audit's connection, before and after its calls.
 * Over stdio it is one more process of the target, whose stdin the last check of the run closes (to watch it exit).
 */
export const LISTING_ONLY = 'listing-only';

/**
 * Receives a legacy `initialize` after its negotiation: a server that speaks both eras may switch such a connection to
 * the legacy wire, so nothing else is sent on it.
 */
export const LEGACY_INITIALIZE = 'legacy-initialize';
