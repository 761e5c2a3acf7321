import { defineDefects } from './define.js';

/** Defects that the checks of suites/listing/ catch, each breaking one of them. */
export const LISTING_DEFECTS = defineDefects([
  {
    name: 'tools-not-array',
    breaks: 'tools.list.respond',
    description: 'the 2nd tools/list page has tools: {} instead of an array',
  },
  {
    name: 'cursor-loop',
    breaks: 'page.walk.terminates',
    description: "the last page's nextCursor leads back to page 2 (endless pagination)",
  },
  {
    name: 'cursor-loop-fresh',
    breaks: 'page.walk.terminates',
    description:
      "every nextCursor is new (an offset and a counter) and the last page's leads back to page 2: endless " +
      'pagination that no cursor comparison sees',
  },
  {
    name: 'duplicate-tool',
    breaks: 'tools.name.unique',
    description: 'the last tools/list page repeats the first tool',
  },
  {
    name: 'client-info-unlocks-tool',
    breaks: 'meta.info.no-behavior',
    description: 'lists one more tool (host_diagnostics) to a client whose clientInfo.name is "claude-ai"',
    transports: ['stdio'],
  },
  {
    name: 'cursor-single-use',
    breaks: 'page.server.stable-cursors',
    description:
      'a tools/list cursor works once per connection: asked for again, it gets -32602 "Invalid cursor: expired"',
    transports: ['stdio'],
  },
  {
    name: 'shuffled-order',
    breaks: 'tools.list.deterministic-order',
    description: 'rotates the tools within each tools/list page by one more position on every tools/list request',
  },
  {
    name: 'connection-scoped-tools',
    breaks: 'tools.list.no-connection-variance',
    description:
      'the last tools/list page gains a tool named after the connection (conn_<pid> on stdio, conn_<client ' +
      'port> on HTTP)',
  },
  {
    name: 'invalid-cursor-ignored',
    breaks: 'page.server.invalid-32602',
    description: 'a tools/list cursor that does not decode answers page 1 instead of -32602',
  },
  {
    name: 'tools-change-after-call',
    breaks: 'tools.list.no-connection-variance.after-calls',
    description:
      'once a connection has made a tools/call, its tools/list shows an extra tool recent_calls (fresh ' +
      'connections do not see it)',
  },
]);
