import { invalidUtf8Bytes } from '../wire.js';
import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/wire.ts catch, each breaking one of them. */
export const WIRE_DEFECTS = {
  'fractional-id': {
    check: 'base.req.id-type',
    description: 'the first tools/call uses the id 1.5 instead of an integer',
    at: {
      firstCall: (first) => {
        first.id = 1.5;
      },
    },
  },
  'reused-id-in-flight': {
    check: 'base.req.id-unique-inflight',
    description: 'sends the first two tools/call requests concurrently with the same id',
    at: {
      concurrentCalls: (shared, fresh) => {
        shared.id ??= fresh.id();
        return true;
      },
    },
  },
  'notification-with-id': {
    check: 'base.notif.no-id',
    description: 'after listing, sends a notifications/cancelled message that carries an id',
    at: {
      messagesAfterListing: (messages, listing) => {
        messages.push({
          jsonrpc: '2.0',
          id: listing.nextId(),
          method: 'notifications/cancelled',
          params: { requestId: listing.lastId, reason: 'reference-client defect notification-with-id' },
        });
      },
    },
  },
  'stdin-garbage': {
    check: 'stdio.client.stdin-clean',
    only: 'stdio',
    description: 'writes the line "hello server" to the stdin of the server before server/discover',
    at: { openingBytes: (kind) => (kind === 'stdio' ? Buffer.from('hello server', 'utf8') : undefined) },
  },
  'invalid-utf8': {
    check: 'transport.utf8',
    description: 'sends server/discover with a raw 0xFF byte inside the clientInfo name',
    at: {
      discoverSending: (sending) => {
        sending.wire = invalidUtf8Bytes;
      },
    },
  },
  'sends-response': {
    check: { http: 'http.client.no-responses', stdio: 'stdio.client.no-responses' },
    description: 'after listing, sends a JSON-RPC response message with id "reference-client-stray"',
    at: {
      messagesAfterListing: (messages) => {
        messages.push({ jsonrpc: '2.0', id: 'reference-client-stray', result: {} });
      },
    },
  },
  'stderr-is-error': {
    only: 'stdio',
    check: 'stdio.client.stderr-not-error',
    description: 'anything the server writes to stderr fails the requests in flight',
    at: {
      transportRules: (rules) => {
        rules.stderrIsError = true;
      },
    },
  },
} as const satisfies Record<string, Defect>;
