import { errorOf, isObject, resultOf } from '../core/jsonrpc.js';
import type { Exchange } from '../model/exchange.js';
import type { McpClient, RequestOptions } from './client.js';
import { pageKey } from './tool-pages.js';

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
  /** A page whose tools are exactly an earlier page's, under a cursor never seen before: a loop with fresh cursors. */
  | { kind: 'page-repeat'; page: number; repeatsPage: number; exchange: Exchange }
  | { kind: 'page-cap'; pages: number };

export interface ToolWalk {
  pages: ToolPage[];
  /**
   * Every tool object from every page, in order, duplicates included (but not those of a page that repeats an earlier
   * one).
   */
  tools: Record<string, unknown>[];
  stop: WalkStop;
}

export const DEFAULT_MAX_PAGES = 5000;

/**
 * Follow `nextCursor` until it is absent; stop on an error, a cursor loop (a repeated cursor, or a page that repeats
 * an earlier page's tools exactly) or the page cap. A repeated page is not part of `pages` or `tools`: its tools are
 * the loop's, not the server's.
 */
export async function walkTools(
  client: McpClient,
  maxPages = DEFAULT_MAX_PAGES,
  options: RequestOptions = {},
): Promise<ToolWalk> {
  const pages: ToolPage[] = [];
  const tools: Record<string, unknown>[] = [];
  const cursorsUsed = new Map<string, number>();
  /**
   * The page number of each page content seen in this walk, by its digest (pageKey): the texts themselves are not kept.
   */
  const pageContents = new Map<string, number>();
  let cursor: string | undefined;
  for (;;) {
    if (pages.length >= maxPages) return { pages, tools, stop: { kind: 'page-cap', pages: pages.length } };
    const exchange = await client.request('tools/list', cursor === undefined ? {} : { cursor }, options);
    const page: ToolPage = { exchange, cursor };
    const pageNo = pages.length + 1;
    const result = resultOf(exchange.response);
    const content = Array.isArray(result?.tools) && result.tools.length > 0 ? JSON.stringify(result.tools) : undefined;
    const key = content === undefined ? undefined : pageKey(content);
    const repeats = key === undefined ? undefined : pageContents.get(key);
    if (repeats !== undefined)
      return { pages, tools, stop: { kind: 'page-repeat', page: pageNo, repeatsPage: repeats, exchange } };
    if (key !== undefined) {
      pageContents.set(key, pageNo);
      result!.tools = client.toolPages.intern(key, content!.length, result!.tools as unknown[]);
    }
    pages.push(page);
    if (!result) {
      const error = errorOf(exchange.response);
      const message = error
        ? `tools/list page ${pageNo} answered error ${String(error.code)}: ${String(error.message)}`
        : `tools/list page ${pageNo} has no result object${exchange.failure ? ` (${exchange.failure.message})` : ''}`;
      return { pages, tools, stop: { kind: 'error', page: pageNo, message } };
    }
    page.result = result;
    if (!Array.isArray(result.tools)) {
      return {
        pages,
        tools,
        stop: { kind: 'not-a-list', page: pageNo, message: `tools/list page ${pageNo}: "tools" is not an array` },
      };
    }
    for (const tool of result.tools) if (isObject(tool)) tools.push(tool);
    const next = result.nextCursor;
    if (typeof next !== 'string') return { pages, tools, stop: { kind: 'complete' } };
    const seen = cursorsUsed.get(next);
    if (seen !== undefined)
      return { pages, tools, stop: { kind: 'cursor-loop', page: pageNo, cursor: next, firstUsedOnPage: seen } };
    cursorsUsed.set(next, pageNo + 1);
    cursor = next;
  }
}
