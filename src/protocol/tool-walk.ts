import { errorOf, isObject, resultOf } from '../jsonrpc.js';
import type { Exchange } from '../transport/types.js';
import type { McpClient } from './client.js';

export interface ToolPage {
  exchange: Exchange;
  /** The cursor sent for this page (undefined for the first). */
  cursor: string | undefined;
  result?: Record<string, unknown>;
}

export type WalkStop =
  | { kind: 'complete' }
  | { kind: 'error'; page: number; message: string }
  | { kind: 'not-a-list'; page: number; message: string }
  | { kind: 'cursor-loop'; page: number; cursor: string; firstUsedOnPage: number }
  | { kind: 'page-cap'; pages: number };

export interface ToolWalk {
  pages: ToolPage[];
  /** Every tool object from every page, in order, duplicates included. */
  tools: Record<string, unknown>[];
  stop: WalkStop;
}

export const DEFAULT_MAX_PAGES = 5000;

/** Follow `nextCursor` until it is absent; stop on an error, a cursor loop or the page cap. */
export async function walkTools(client: McpClient, maxPages = DEFAULT_MAX_PAGES): Promise<ToolWalk> {
  const pages: ToolPage[] = [];
  const tools: Record<string, unknown>[] = [];
  const cursorsUsed = new Map<string, number>();
  let cursor: string | undefined;
  for (;;) {
    if (pages.length >= maxPages) return { pages, tools, stop: { kind: 'page-cap', pages: pages.length } };
    const exchange = await client.request('tools/list', cursor === undefined ? {} : { cursor });
    const page: ToolPage = { exchange, cursor };
    pages.push(page);
    const pageNo = pages.length;
    const result = resultOf(exchange.response);
    if (!result) {
      const error = errorOf(exchange.response);
      const message = error
        ? `tools/list page ${pageNo} answered error ${String(error.code)}: ${String(error.message)}`
        : `tools/list page ${pageNo} has no result object${exchange.failure ? ` (${exchange.failure.message})` : ''}`;
      return { pages, tools, stop: { kind: 'error', page: pageNo, message } };
    }
    page.result = result;
    if (!Array.isArray(result.tools)) {
      return { pages, tools, stop: { kind: 'not-a-list', page: pageNo, message: `tools/list page ${pageNo}: "tools" is not an array` } };
    }
    for (const tool of result.tools) if (isObject(tool)) tools.push(tool);
    const next = result.nextCursor;
    if (typeof next !== 'string') return { pages, tools, stop: { kind: 'complete' } };
    const seen = cursorsUsed.get(next);
    if (seen !== undefined) return { pages, tools, stop: { kind: 'cursor-loop', page: pageNo, cursor: next, firstUsedOnPage: seen } };
    cursorsUsed.set(next, pageNo + 1);
    cursor = next;
  }
}
