import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/wire.ts catch, each breaking one of them. */
export const WIRE_DEFECTS = {
  'fractional-id': {
    check: 'base.req.id-type',
    description: 'the first tools/call uses the id 1.5 instead of an integer',
  },
  'reused-id-in-flight': {
    check: 'base.req.id-unique-inflight',
    description: 'sends the first two tools/call requests concurrently with the same id',
  },
  'notification-with-id': {
    check: 'base.notif.no-id',
    description: 'after listing, sends a notifications/cancelled message that carries an id',
  },
  'stdin-garbage': {
    check: 'stdio.client.stdin-clean',
    only: 'stdio',
    description: 'writes the line "hello server" to the stdin of the server before server/discover',
  },
  'invalid-utf8': {
    check: 'transport.utf8',
    description: 'sends server/discover with a raw 0xFF byte inside the clientInfo name',
  },
  'sends-response': {
    check: { http: 'http.client.no-responses', stdio: 'stdio.client.no-responses' },
    description: 'after listing, sends a JSON-RPC response message with id "reference-client-stray"',
  },
  'stderr-is-error': {
    only: 'stdio',
    check: 'stdio.client.stderr-not-error',
    description: 'anything the server writes to stderr fails the requests in flight',
  },
} as const satisfies Record<string, Defect>;
