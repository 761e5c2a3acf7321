import type { JsonRpcId } from '../../../src/core/jsonrpc.js';
import { crashesOn } from './search-tools.js';
import { defineDefects } from './define.js';
import { ROOTS_LIST_REQUEST } from './roots-list-request.js';

/** wrong-id-on-list: an id the request did not have. */
function differentId(id: JsonRpcId): JsonRpcId {
  return typeof id === 'number' ? id + 1_000_000 : `${id}-not-yours`;
}

/** Misbehaviours for the bad-target tests: none breaks one requirement. */
export const CHAOS_DEFECTS = defineDefects([
  {
    name: 'crash-on-rare-input',
    breaks: null,
    chaos: true,
    description:
      'adds format_label (see rare-internal-error); the process exits with code 70 on its rare input instead ' +
      'of answering',
    transports: ['stdio'],
    at: {
      requestReceived: ({ method, params }) =>
        crashesOn(method, params)
          ? { kind: 'send', messages: [], status: 500, stream: false, exitCode: 70 }
          : undefined,
      addedTools: (names) => {
        names.push('format_label');
      },
    },
  },
  {
    name: 'hang-on-list',
    breaks: null,
    chaos: true,
    description: 'never answers tools/list (keeps running)',
    at: { requestReceived: ({ method }) => (method === 'tools/list' ? { kind: 'hang' } : undefined) },
  },
  {
    name: 'server-request-waits',
    breaks: null,
    chaos: true,
    description:
      'sends a roots/list JSON-RPC request before answering the first tools/list, and waits for the answer a ' +
      '2026-07-28 client never sends',
    transports: ['stdio'],
    at: { requestBeforeListing: (scope) => (scope === 'server' ? ROOTS_LIST_REQUEST : undefined) },
  },
  {
    name: 'hang-get-time',
    breaks: null,
    chaos: true,
    description: 'never answers a tools/call of the read-only get_time (keeps serving everything else)',
    at: {
      requestReceived: ({ method, params }) =>
        method === 'tools/call' && params.name === 'get_time' ? { kind: 'hang' } : undefined,
    },
  },
  {
    name: 'exit-after-discover',
    breaks: null,
    chaos: true,
    description: 'exits with code 1 right after answering server/discover',
    transports: ['stdio'],
    at: {
      requestAnswered: (answered) => {
        if (answered.method === 'server/discover') answered.exitCode = 1;
      },
    },
  },
  {
    name: 'garbage-on-list',
    breaks: null,
    chaos: true,
    description: 'answers tools/list with the line "this is not json"',
    transports: ['stdio'],
    at: {
      requestReceived: ({ method }) =>
        method === 'tools/list' ? { kind: 'raw', text: 'this is not json' } : undefined,
    },
  },
  {
    name: 'wrong-id-on-list',
    breaks: null,
    chaos: true,
    description: 'answers tools/list with the right result under a different id',
    at: {
      requestAnswered: ({ id, method, response }) => {
        if (method === 'tools/list') response.id = differentId(id);
      },
    },
  },
]);
