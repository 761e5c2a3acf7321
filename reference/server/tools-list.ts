import { LIST_TTL_MS, PAGE_SIZE } from './constants.js';
import { decodeCursor, decodeFreshCursor, encodeCursor, encodeFreshCursor } from './cursor.js';
import type { ActiveDefects } from './defects/active.js';
import { invalidParams } from './protocol-error.js';
import type { HandlerContext } from './reply.js';
import { serverInfoMeta } from './result-meta.js';
import { BETA_DEFINITION } from './beta-tools.js';
import { RECENT_CALLS_TOOL, connectionScopedTool, listedToolDefinitions } from './tool-defects.js';

/** The client-info-unlocks-tool defect lists one more tool to a client that says it is this host. */
const FAVOURED_CLIENT = 'claude-ai';
const HOST_DIAGNOSTICS_TOOL = {
  name: 'host_diagnostics',
  description: 'Internal diagnostics, listed only to a favoured host.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
};

function clientNameOf(params: Record<string, unknown>): unknown {
  const meta = params._meta;
  const info =
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>)['io.modelcontextprotocol/clientInfo']
      : undefined;
  return typeof info === 'object' && info !== null ? (info as Record<string, unknown>).name : undefined;
}

/** One tools/list page; `ctx.state.toolsListRequests` must already count this request. */
export function toolsListResult(params: Record<string, unknown>, ctx: HandlerContext): Record<string, unknown> {
  const { defects } = ctx;
  const definitions = ctx.state.betaTools
    ? [...listedToolDefinitions(defects), BETA_DEFINITION]
    : listedToolDefinitions(defects);
  const listed = withScale(
    ctx.session ? definitions.filter((tool) => ctx.session!.serves(String(tool.name))) : definitions,
    ctx,
  );
  const pageSize = ctx.scale?.pageSize ?? PAGE_SIZE;
  const total = listed.length;
  if (defects.has('cursor-single-use') && typeof params.cursor === 'string') spendCursor(params.cursor, ctx);
  const offset = pageOffset(params.cursor, total, pageSize, defects);
  const end = Math.min(offset + pageSize, total);
  const pageIndex = offset / pageSize;
  const isLastPage = end === total;

  let page = listed.slice(offset, end);
  if (defects.has('shuffled-order')) page = rotate(page, ctx.state.toolsListRequests);
  if (isLastPage && defects.has('connection-scoped-tools')) page = [...page, connectionScopedTool(ctx.connection)];
  if (isLastPage && defects.has('tools-change-after-call') && ctx.state.callers.has(ctx.connection))
    page = [...page, RECENT_CALLS_TOOL];
  if (isLastPage && defects.has('client-info-unlocks-tool') && clientNameOf(params) === FAVOURED_CLIENT)
    page = [...page, HOST_DIAGNOSTICS_TOOL];
  let tools: unknown = page;
  if (isLastPage && defects.has('duplicate-tool')) tools = [...page, listed[0]];
  if (pageIndex === 1 && defects.has('tools-not-array')) tools = {};

  const result: Record<string, unknown> = { resultType: 'complete', tools };
  const fresh = defects.has('cursor-loop-fresh');
  if (!isLastPage) result.nextCursor = fresh ? encodeFreshCursor(end, ctx.state.toolsListRequests) : encodeCursor(end);
  else if (defects.has('cursor-loop')) result.nextCursor = encodeCursor(pageSize);
  else if (fresh) result.nextCursor = encodeFreshCursor(pageSize, ctx.state.toolsListRequests);
  result.ttlMs = LIST_TTL_MS;
  result.cacheScope = pageIndex > 0 && defects.has('mixed-cache-scope') ? 'private' : 'public';
  if (!defects.has('no-server-info-on-list')) result._meta = serverInfoMeta();
  if (defects.has('bad-traceparent')) result._meta = { ...(result._meta as object), traceparent: '00-trace-1-01' };

  if (isLastPage && defects.has('no-cache-hints')) {
    delete result.ttlMs;
    delete result.cacheScope;
  }
  if (pageIndex === 1 && defects.has('no-result-type')) delete result.resultType;
  return result;
}

function withScale<T>(listed: readonly T[], ctx: HandlerContext): readonly (T | Record<string, unknown>)[] {
  if (ctx.scale?.failing) return ctx.scale.tools;
  return ctx.scale ? [...listed, ...ctx.scale.tools] : listed;
}

/** The cursor-single-use defect: a cursor this connection has used before is refused as expired. */
function spendCursor(cursor: string, ctx: HandlerContext): void {
  const used = ctx.state.usedCursors.get(ctx.connection) ?? new Set<string>();
  ctx.state.usedCursors.set(ctx.connection, used);
  if (used.has(cursor)) throw invalidParams('Invalid cursor: expired');
  used.add(cursor);
}

function pageOffset(cursor: unknown, total: number, pageSize: number, defects: ActiveDefects): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string') throw invalidParams('Invalid cursor: must be a string');
  const offset =
    decodeCursor(cursor, total, pageSize) ?? (defects.has('cursor-loop-fresh') ? decodeFreshCursor(cursor) : undefined);
  if (offset !== undefined) return offset;
  if (defects.has('invalid-cursor-ignored')) return 0;
  throw invalidParams('Invalid cursor');
}

/** The items moved `by` positions to the left, wrapping around. */
function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
