import { errorResponse, type OutgoingMessage } from '../messages.js';
import { methodNotFound } from '../protocol-error.js';
import { defineDefects } from './define.js';
import type { JsonObject } from './seams/json.js';
import { ROOTS_LIST_REQUEST } from './roots-list-request.js';
import { numberSpelledBy } from './spelled-numbers.js';

/** id-never-reused-ping-twice's request, sent twice. */
const REPEATED_PING: OutgoingMessage = { jsonrpc: '2.0', id: 'srv-ping-1', method: 'ping' };

/** Defects that the checks of suites/wire/ catch, each breaking one of them. */
export const WIRE_DEFECTS = defineDefects([
  {
    name: 'bad-jsonrpc-version',
    breaks: 'base.jsonrpc',
    description: 'tools/list responses carry "jsonrpc": "1.0"',
    at: {
      requestAnswered: ({ method, response }) => {
        if (method === 'tools/list') response.jsonrpc = '1.0';
      },
    },
  },
  {
    name: 'error-id-null',
    breaks: 'base.id.same',
    description: 'JSON-RPC errors answering a well-formed tools/call (an unknown tool, for instance) carry "id": null',
    transports: ['http'],
    at: {
      requestAnswered: ({ method, response }) => {
        if (method === 'tools/call' && 'error' in response) response.id = null;
      },
    },
  },
  {
    name: 'digit-string-id-as-number',
    breaks: 'base.id.same.string',
    description: 'a request whose id is a string of digits ("900000007") is answered under the number (900000007)',
    transports: ['stdio'],
    at: {
      requestAnswered: ({ id, response }) => {
        const number = numberSpelledBy(id);
        if (number !== undefined) response.id = number;
      },
    },
  },
  {
    name: 'stdout-noise',
    breaks: 'stdio.server.stdout-clean',
    description: 'writes the plain text line "reference server ready" to stdout at start-up',
    transports: ['stdio'],
    at: { stdoutPreamble: () => 'reference server ready\n' },
  },
  {
    name: 'server-request',
    breaks: 'patterns.server-no-requests',
    description: 'sends a roots/list JSON-RPC request before answering the first tools/list',
    at: {
      requestAnswered: ({ firstListing, before }) => {
        if (firstListing) before.unshift(ROOTS_LIST_REQUEST);
      },
    },
  },
  {
    name: 'id-never-reused-ping-twice',
    breaks: 'base.req.id-never-reused',
    description:
      'before the first tools/list of a session is answered, sends the client two ping requests under the same ' +
      'id ("srv-ping-1")',
    revision: '2024-11-05',
    at: {
      requestAnswered: ({ firstListingOfSession, before }) => {
        if (firstListingOfSession) before.unshift(REPEATED_PING, REPEATED_PING);
      },
    },
  },
  {
    name: 'batch-rejected',
    breaks: 'base.batch.receive',
    description:
      'a 2025-03-26 session answers every JSON-RPC batch with one -32600 error ("batches are not supported"), ' +
      'as servers of 2025-06-18 on may',
    revision: '2025-03-26',
    at: {
      messageRules: (rules) => {
        rules.batchesReceived = false;
      },
    },
  },
  {
    name: 'notification-batch-answered',
    breaks: 'http.batch.notifications-202',
    description:
      'a POST whose body is a batch of notifications only is answered 200 with an empty JSON array instead of ' +
      '202 Accepted with no body',
    transports: ['http'],
    revision: '2025-03-26',
    at: { httpAcceptedBatch: () => [] },
  },
  {
    name: 'ignore-stdin-eof',
    breaks: 'stdio.shutdown.server-exit',
    description: 'keeps running after stdin is closed (until a signal ends it)',
    transports: ['stdio'],
    at: {
      stdioRules: (rules) => {
        rules.stayUpAfterEof = 'defect ignore-stdin-eof';
      },
    },
  },
  {
    name: 'latin1-response',
    breaks: 'transport.utf8',
    description:
      'the first server/discover answer is written in ISO-8859-1: its instructions end "Served from a café." ' +
      'with é as the single byte 0xE9',
    transports: ['stdio'],
    at: {
      stdoutEncoder: () => {
        let pending = true;
        return (message) => {
          const result = message.result as JsonObject | undefined;
          if (!pending || !result || !('supportedVersions' in result) || typeof result.instructions !== 'string')
            return undefined;
          pending = false;
          const text = JSON.stringify({
            ...message,
            result: { ...result, instructions: `${result.instructions} Served from a caf\u00e9.` },
          });
          return Buffer.from(`${text}\n`, 'latin1');
        };
      },
    },
  },
  {
    name: 'ping-error',
    breaks: 'base.ping.respond',
    description: 'ping is answered with error -32601 (Method not found), as by a server that never implemented it',
    revision: '2024-11-05',
    at: {
      requestAnswered: (answered) => {
        if (answered.method === 'ping')
          answered.response = errorResponse(answered.id, methodNotFound('Method not found: ping'));
      },
    },
  },
]);
