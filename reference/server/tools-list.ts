import { LIST_TTL_MS, PAGE_SIZE } from './constants.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { ActiveDefects } from './defects/active.js';
import type { JsonObject } from './defects/seams/json.js';
import type { ToolsListPage } from './defects/seams/listing.js';
import { invalidParams } from './protocol-error.js';
import type { HandlerContext } from './reply.js';
import { serverInfoMeta } from './result-meta.js';
import { BETA_DEFINITION } from './beta-tools.js';
import { searchDefectDefinitions } from './defects/search-tools.js';
import { TOOL_DEFINITIONS } from './tools.js';

/** One tools/list page; `ctx.state.toolsListRequests` must already count this request. */
export function toolsListResult(params: Record<string, unknown>, ctx: HandlerContext): Record<string, unknown> {
  const { defects } = ctx;
  const definitions = listedToolDefinitions(defects);
  if (ctx.state.betaTools) definitions.push(BETA_DEFINITION as unknown as JsonObject);
  const listed = withScale(
    ctx.session ? definitions.filter((tool) => ctx.session!.serves(String(tool.name))) : definitions,
    ctx,
  );
  const pageSize = ctx.scale?.pageSize ?? PAGE_SIZE;
  const total = listed.length;
  if (typeof params.cursor === 'string')
    defects.at.receivedCursor(params.cursor, ctx.connection, ctx.state.usedCursors);
  const offset = pageOffset(params.cursor, total, pageSize, defects);
  const end = Math.min(offset + pageSize, total);
  const page: ToolsListPage = {
    index: offset / pageSize,
    end,
    pageSize,
    isLast: end === total,
    requestCount: ctx.state.toolsListRequests,
    listed,
    connection: ctx.connection,
    callers: ctx.state.callers,
    params,
  };

  const tools = listed.slice(offset, end);
  defects.at.toolsPage(tools, page);
  const nextCursor = defects.at.nextCursor(page) ?? (page.isLast ? undefined : encodeCursor(end));
  const result: Record<string, unknown> = {
    resultType: 'complete',
    tools,
    ...(nextCursor === undefined ? {} : { nextCursor }),
    ttlMs: LIST_TTL_MS,
    cacheScope: 'public',
    _meta: serverInfoMeta(),
  };
  defects.at.toolsListResult(result, page);
  return result;
}

/** The tool definitions tools/list shows: a fresh copy, which the active defects may spoil. */
function listedToolDefinitions(defects: ActiveDefects): JsonObject[] {
  const tools = structuredClone([...TOOL_DEFINITIONS, ...searchDefectDefinitions(defects)]) as unknown as JsonObject[];
  defects.at.listedTools(tools);
  return tools;
}

function withScale(listed: readonly JsonObject[], ctx: HandlerContext): readonly JsonObject[] {
  if (ctx.scale?.failing) return ctx.scale.tools;
  return ctx.scale ? [...listed, ...ctx.scale.tools] : listed;
}

function pageOffset(cursor: unknown, total: number, pageSize: number, defects: ActiveDefects): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string') throw invalidParams('Invalid cursor: must be a string');
  const offset = decodeCursor(cursor, total, pageSize) ?? defects.at.undecodedCursor(cursor);
  if (offset !== undefined) return offset;
  throw invalidParams('Invalid cursor');
}
