import type { OutgoingMessage } from '../messages.js';

/** The roots/list request the defects server-request and server-request-waits send a client that never answers one. */
export const ROOTS_LIST_REQUEST: OutgoingMessage = { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' };
