import { LIST_TTL_MS, PAGE_SIZE } from './constants.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { DefectSet } from './defects.js';
import { invalidParams } from './protocol-error.js';
import { serverInfoMeta } from './result-meta.js';
import { listedToolDefinitions } from './tool-defects.js';

export function toolsListResult(params: Record<string, unknown>, defects: DefectSet): Record<string, unknown> {
  const listed = listedToolDefinitions(defects);
  const total = listed.length;
  const offset = pageOffset(params.cursor, total);
  const end = Math.min(offset + PAGE_SIZE, total);
  const pageIndex = offset / PAGE_SIZE;
  const isLastPage = end === total;

  let tools: unknown = listed.slice(offset, end);
  if (isLastPage && defects.has('duplicate-tool')) tools = [...listed.slice(offset, end), listed[0]];
  if (pageIndex === 1 && defects.has('tools-not-array')) tools = {};

  const result: Record<string, unknown> = { resultType: 'complete', tools };
  if (!isLastPage) result.nextCursor = encodeCursor(end);
  else if (defects.has('cursor-loop')) result.nextCursor = encodeCursor(PAGE_SIZE);
  result.ttlMs = LIST_TTL_MS;
  result.cacheScope = pageIndex > 0 && defects.has('mixed-cache-scope') ? 'private' : 'public';
  if (!defects.has('no-server-info-on-list')) result._meta = serverInfoMeta();

  if (isLastPage && defects.has('no-cache-hints')) {
    delete result.ttlMs;
    delete result.cacheScope;
  }
  if (pageIndex === 1 && defects.has('no-result-type')) delete result.resultType;
  return result;
}

function pageOffset(cursor: unknown, total: number): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string') throw invalidParams('Invalid cursor: must be a string');
  const offset = decodeCursor(cursor, total, PAGE_SIZE);
  if (offset === undefined) throw invalidParams('Invalid cursor');
  return offset;
}
