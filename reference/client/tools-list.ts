import { errorOf, resultOf, type JsonRpcId } from '../../src/core/jsonrpc.js';
import { MAX_LIST_PAGES } from './constants.js';
import type { Defects } from './defects/active.js';
import type { ListingRules } from './defects/seams/session.js';
import { Fatal } from './fatal.js';
import { requestMeta } from './request-meta.js';
import type { Rpc } from './rpc.js';

export interface Listing {
  tools: unknown[];
  /** The id of the last tools/list request. */
  lastId: JsonRpcId;
  /**
   * When the whole listing stops being fresh: its first page's arrival plus the smallest page ttlMs (absent or
   * negative: 0).
   */
  freshUntil: number;
}

/** Every page of `tools/list`, following `nextCursor` verbatim until it is absent (`""` is a cursor). */
export async function listAllTools(rpc: Rpc, defects: Defects): Promise<Listing> {
  const tools: unknown[] = [];
  const started = Date.now();
  let ttlMs = Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  const rules: ListingRules = { followsNextCursor: true, emptyCursorIsCursor: true };
  defects.at.listingRules(rules);
  for (let page = 0; ; page++) {
    if (page === MAX_LIST_PAGES) throw new Fatal(`tools/list did not end after ${MAX_LIST_PAGES} pages`);
    const meta = { withCapabilities: true, withClientInfo: true };
    defects.at.metaOptions(meta, 'tools/list', page);
    const params: Record<string, unknown> = { _meta: requestMeta(meta) };
    if (cursor !== undefined) params.cursor = defects.at.sentCursor(cursor) ?? cursor;
    const request = () => requestPage(rpc, params);
    const { id, response } =
      cursor === undefined ? await request() : await (defects.at.laterPage(cursor, request) ?? request());
    const error = errorOf(response);
    if (error) throw new Fatal(`tools/list failed: ${String(error.message)} (code ${String(error.code)})`);
    const result = resultOf(response);
    if (!result) throw new Fatal('tools/list answered without a result object');
    if (result.resultType !== undefined && result.resultType !== 'complete') {
      throw new Fatal(`tools/list answered with resultType ${JSON.stringify(result.resultType)}`);
    }
    if (!Array.isArray(result.tools)) throw new Fatal('tools/list result has no tools array');
    tools.push(...result.tools);
    ttlMs = Math.min(ttlMs, typeof result.ttlMs === 'number' && result.ttlMs > 0 ? result.ttlMs : 0);
    const listing = () => ({ tools, lastId: id, freshUntil: started + ttlMs });
    const next = result.nextCursor;
    if (next === undefined || next === null || !rules.followsNextCursor) return listing();
    if (typeof next !== 'string') throw new Fatal(`tools/list nextCursor is not a string: ${JSON.stringify(next)}`);
    if (next === '' && !rules.emptyCursorIsCursor) return listing();
    cursor = next;
  }
}

async function requestPage(rpc: Rpc, params: Record<string, unknown>) {
  try {
    return await rpc.request('tools/list', params);
  } catch (error) {
    throw new Fatal(`tools/list failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
