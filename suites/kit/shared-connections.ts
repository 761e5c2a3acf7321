/**
 * Independent connections that several checks share (over stdio each one is another process of the target, so they
 * are few). Each key says what its users agree to do with it.
 */

/**
 * Only ever walks tools/list, never calls a tool: compared with the audit's connection, before and after its calls.
 * Over stdio it is one more process of the target, whose stdin the last check of the run closes (to watch it exit).
 * Its users take turns by phase: the main phase walks it; while checks overlap, base.notif.no-response keeps its quiet
 * window there from the serial phase until the window's verdict is collected; the final phase walks it again; the last
 * phase ends it.
 */
export const LISTING_ONLY = 'listing-only';

/**
 * Receives an `initialize` of an initialize revision after its negotiation: a server that speaks both eras may switch
 * such a connection to that revision's wire, so nothing else is sent on it.
 */
export const INITIALIZE_ONLY = 'initialize-only';
