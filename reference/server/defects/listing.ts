import { CURSOR_TAG, encodeCursor } from '../cursor.js';
import { invalidParams } from '../protocol-error.js';
import { defineDefects } from './define.js';
import { extraTool } from './extra-tools.js';
import type { JsonObject } from './seams/json.js';

/** The cursor-loop-fresh defect's cursors: a tagged offset plus a counter, so that no cursor ever repeats. */
function encodeFreshCursor(offset: number, serial: number): string {
  return Buffer.from(`${CURSOR_TAG}${offset}~${serial}`, 'utf8').toString('base64url');
}

function decodeFreshCursor(cursor: string): number | undefined {
  const match = /^tools-page:([1-9][0-9]{0,5})~[0-9]{1,9}$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** The client-info-unlocks-tool defect lists one more tool to a client that says it is this host. */
const FAVOURED_CLIENT = 'claude-ai';
const HOST_DIAGNOSTICS_TOOL = {
  name: 'host_diagnostics',
  description: 'Internal diagnostics, listed only to a favoured host.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
};

function clientNameOf(params: JsonObject): unknown {
  const meta = params._meta;
  const info =
    typeof meta === 'object' && meta !== null ? (meta as JsonObject)['io.modelcontextprotocol/clientInfo'] : undefined;
  return typeof info === 'object' && info !== null ? (info as JsonObject).name : undefined;
}

/** The tools-change-after-call defect's extra tool, listed only to a connection that has called a tool. */
const RECENT_CALLS_TOOL = extraTool('recent_calls', { type: 'object' });

/** The items moved `by` positions to the left, wrapping around. */
function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** Defects that the checks of suites/listing/ catch, each breaking one of them. */
export const LISTING_DEFECTS = defineDefects([
  {
    name: 'tools-not-array',
    breaks: 'tools.list.respond',
    description: 'the 2nd tools/list page has tools: {} instead of an array',
    at: {
      toolsListResult: (result, page) => {
        if (page.index === 1) result.tools = {};
      },
    },
  },
  {
    name: 'cursor-loop',
    breaks: 'page.walk.terminates',
    description: "the last page's nextCursor leads back to page 2 (endless pagination)",
    at: { nextCursor: (page) => (page.isLast ? encodeCursor(page.pageSize) : undefined) },
  },
  {
    name: 'cursor-loop-fresh',
    breaks: 'page.walk.terminates',
    description:
      "every nextCursor is new (an offset and a counter) and the last page's leads back to page 2: endless " +
      'pagination that no cursor comparison sees',
    at: {
      nextCursor: (page) => encodeFreshCursor(page.isLast ? page.pageSize : page.end, page.requestCount),
      undecodedCursor: decodeFreshCursor,
    },
  },
  {
    name: 'duplicate-tool',
    breaks: 'tools.name.unique',
    description: 'the last tools/list page repeats the first tool',
    at: {
      toolsPage: (tools, page) => {
        if (page.isLast) tools.push(page.listed[0]!);
      },
    },
  },
  {
    name: 'client-info-unlocks-tool',
    breaks: 'meta.info.no-behavior',
    description: 'lists one more tool (host_diagnostics) to a client whose clientInfo.name is "claude-ai"',
    transports: ['stdio'],
    at: {
      toolsPage: (tools, page) => {
        if (page.isLast && clientNameOf(page.params) === FAVOURED_CLIENT) tools.push(HOST_DIAGNOSTICS_TOOL);
      },
    },
  },
  {
    name: 'cursor-single-use',
    breaks: 'page.server.stable-cursors',
    description:
      'a tools/list cursor works once per connection: asked for again, it gets -32602 "Invalid cursor: expired"',
    transports: ['stdio'],
    at: {
      receivedCursor: (cursor, connection, usedCursors) => {
        const used = usedCursors.get(connection) ?? new Set<string>();
        usedCursors.set(connection, used);
        if (used.has(cursor)) throw invalidParams('Invalid cursor: expired');
        used.add(cursor);
      },
    },
  },
  {
    name: 'shuffled-order',
    breaks: 'tools.list.deterministic-order',
    description: 'rotates the tools within each tools/list page by one more position on every tools/list request',
    at: {
      toolsPage: (tools, page) => {
        tools.splice(0, tools.length, ...rotate(tools, page.requestCount));
      },
    },
  },
  {
    name: 'connection-scoped-tools',
    breaks: 'tools.list.no-connection-variance',
    description:
      'the last tools/list page gains a tool named after the connection (conn_<pid> on stdio, conn_<client ' +
      'port> on HTTP)',
    at: {
      toolsPage: (tools, page) => {
        if (page.isLast) tools.push(extraTool(`conn_${page.connection}`, { type: 'object' }));
      },
    },
  },
  {
    name: 'invalid-cursor-ignored',
    breaks: 'page.server.invalid-32602',
    description: 'a tools/list cursor that does not decode answers page 1 instead of -32602',
    at: { undecodedCursor: () => 0 },
  },
  {
    name: 'tools-change-after-call',
    breaks: 'tools.list.no-connection-variance.after-calls',
    description:
      'once a connection has made a tools/call, its tools/list shows an extra tool recent_calls (fresh ' +
      'connections do not see it)',
    at: {
      toolsCallDispatched: (callers, connection) => {
        callers.add(connection);
      },
      toolsPage: (tools, page) => {
        if (page.isLast && page.callers.has(page.connection)) tools.push(RECENT_CALLS_TOOL);
      },
    },
  },
]);
