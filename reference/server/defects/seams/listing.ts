import type { JsonObject } from './json.js';

/** One tools/list page being answered: where it sits in the listing, and what the server knows of its request. */
export interface ToolsListPage {
  /** 0 for the first page. */
  index: number;
  /** Where the next page starts in the listing. */
  end: number;
  pageSize: number;
  isLast: boolean;
  /** The tools/list requests that have reached the listing, this one included. */
  requestCount: number;
  /** The whole listing the page is cut from. */
  listed: readonly JsonObject[];
  /** Names the client's connection (the process id on stdio, the client's TCP port on HTTP). */
  connection: string;
  /** The connections that have made a tools/call. */
  callers: ReadonlySet<string>;
  /** The request's params. */
  params: JsonObject;
}

/** The seams of what the server tells of itself and lists: server/discover and tools/list. */
export interface ListingSeams {
  /** The server/discover result, made whole (capabilities included): spoil it in place. */
  discoverResult?(result: JsonObject): void;
  /** The capabilities discover declares: spoil them in place, or return the object to declare instead. */
  serverCapabilities?(capabilities: JsonObject): JsonObject | void;
  /** The tool definitions tools/list pages through (a fresh copy, every request): spoil them or add tools in place. */
  listedTools?(tools: JsonObject[]): void;
  /** A tools/list cursor before it is decoded, with the cursors each connection has used: throw to refuse it. */
  receivedCursor?(cursor: string, connection: string, usedCursors: Map<string, Set<string>>): void;
  /** A tools/list cursor the server did not issue: return the offset to serve instead of answering -32602. */
  undecodedCursor?(cursor: string): number | undefined;
  /** The tools of one tools/list page, cut from the listing: reorder them or add tools in place. */
  toolsPage?(tools: JsonObject[], page: ToolsListPage): void;
  /** The cursor of the page after this one (none after the last): return the cursor to send instead. */
  nextCursor?(page: ToolsListPage): string | undefined;
  /** One tools/list result, made whole: spoil it in place. */
  toolsListResult?(result: JsonObject, page: ToolsListPage): void;
  /** A tools/call is about to run for a connection; callers holds those that made one: a hook may add it there. */
  toolsCallDispatched?(callers: Set<string>, connection: string): void;
}
