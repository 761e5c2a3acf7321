import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/initialize-handshake.ts catch, each breaking one of them. */
export const INITIALIZE_HANDSHAKE_DEFECTS = {
  'lists-before-initialize': {
    initializeRevision: '2025-11-25',
    check: 'lifecycle.client.initialize-first',
    description: 'sends tools/list before initialize',
    at: { requestBeforeInitialize: () => ({ method: 'tools/list', params: {} }) },
  },
  'no-initialized': {
    initializeRevision: '2025-11-25',
    check: 'lifecycle.client.initialized',
    description: 'sends no notifications/initialized after initialize',
    at: { initializedNotification: () => [] },
  },
  'drops-session-id': {
    initializeRevision: '2025-11-25',
    only: 'http',
    check: 'http.session.echo',
    description: 'sends tools/call without the Mcp-Session-Id of its session',
    at: {
      initializedConnection: (connection) => {
        connection.omitSessionOn = 'tools/call';
      },
    },
  },
  'no-new-session-after-404': {
    initializeRevision: '2025-11-25',
    only: 'http',
    check: 'http.session.new-after-404',
    description: 'after a 404 on its session, sends the request again in the ended session instead of a new initialize',
    at: {
      initializeModeRules: (rules) => {
        rules.reinitializesAfter404 = false;
      },
    },
  },
  'no-protocol-version-after-initialize': {
    initializeRevision: '2025-11-25',
    only: 'http',
    check: 'http.pv.after-initialize',
    description: 'sends no MCP-Protocol-Version header after initialize',
    at: {
      initializedConnection: (connection) => {
        connection.protocolVersion = undefined;
      },
    },
  },
  'answers-with-wrong-id': {
    initializeRevision: '2025-11-25',
    check: 'base.response.same-id',
    description: "answers the server's first request with another id than the request's",
    at: { serverRequestReply: (reply, id, first) => (first ? { ...reply, id: `${String(id)}-other` } : undefined) },
  },
  'cancels-server-request': {
    initializeRevision: '2025-11-25',
    check: 'cancel.client.own-requests',
    description: "sends notifications/cancelled for the server's first request (one the client did not issue)",
    at: {
      serverRequestReceived: (id, first) =>
        first
          ? { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'defect' } }
          : undefined,
    },
  },
  'id-never-reused-initialize-id': {
    initializeRevision: '2025-11-25',
    check: 'base.req.id-never-reused',
    description: 'the first tools/list reuses the id of initialize (1), answered by then',
    at: { initializeModeId: (method, _id, first) => (method === 'tools/list' && first ? 1 : undefined) },
  },
  'legacy-json-batch': {
    initializeRevision: '2025-11-25',
    check: 'jsonrpc.client.no-batch',
    description: 'sends notifications/initialized as a JSON-RPC batch of one',
    at: { initializedNotification: (initialized) => [[initialized]] },
  },
} as const satisfies Record<string, Defect>;
