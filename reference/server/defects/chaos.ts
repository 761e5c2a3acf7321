import { defineDefects } from './define.js';

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
      addedTools: (names) => {
        names.push('format_label');
      },
    },
  },
  { name: 'hang-on-list', breaks: null, chaos: true, description: 'never answers tools/list (keeps running)' },
  {
    name: 'server-request-waits',
    breaks: null,
    chaos: true,
    description:
      'sends a roots/list JSON-RPC request before answering the first tools/list, and waits for the answer a ' +
      '2026-07-28 client never sends',
    transports: ['stdio'],
  },
  {
    name: 'hang-get-time',
    breaks: null,
    chaos: true,
    description: 'never answers a tools/call of the read-only get_time (keeps serving everything else)',
  },
  {
    name: 'exit-after-discover',
    breaks: null,
    chaos: true,
    description: 'exits with code 1 right after answering server/discover',
    transports: ['stdio'],
  },
  {
    name: 'garbage-on-list',
    breaks: null,
    chaos: true,
    description: 'answers tools/list with the line "this is not json"',
    transports: ['stdio'],
  },
  {
    name: 'wrong-id-on-list',
    breaks: null,
    chaos: true,
    description: 'answers tools/list with the right result under a different id',
  },
]);
