import type { JsonRpcId, Received } from '../../../../src/core/jsonrpc.js';
import type { HeaderAnnotation } from '../../header-annotations.js';
import type { MetaOptions } from '../../request-meta.js';

export type TransportKind = 'http' | 'stdio';

/** How the transports treat what the server sends; the defaults are the conforming rules. */
export interface TransportRules {
  /** HTTP: only application/json answers are read; a text/event-stream answer fails its request. */
  refusesSse: boolean;
  /** HTTP: a stream that ends before its response, after events with ids, is resumed with GET and Last-Event-ID. */
  resumesCutStreams: boolean;
  /** stdio: anything the server writes on stderr fails the requests in flight. */
  stderrIsError: boolean;
}

/** How the client runs its session; the defaults are the conforming rules. */
export interface SessionRules {
  /** server/discover is sent first. */
  discovers: boolean;
  /** A listen stream hears notifications/tools/list_changed when the server declares tools.listChanged. */
  watchesToolChanges: boolean;
  /** notifications/tools/list_changed makes the listing stale. */
  listChangedMakesStale: boolean;
  /** The listing is used again only while fresh (within its ttlMs, no list_changed since). */
  listingExpires: boolean;
}

/** How every request is waited for; the defaults are the conforming rules. */
export interface RequestRules {
  /** How long an answer is waited for: the call timeout of the driver contract. */
  timeoutMs: number;
  /** stdio: a request that times out is cancelled with notifications/cancelled. */
  cancelsOnTimeout: boolean;
}

/** How the client walks the pages of tools/list; the defaults are the conforming rules. */
export interface ListingRules {
  /** A nextCursor is followed. */
  followsNextCursor: boolean;
  /** nextCursor "" is a cursor like any other, not the end. */
  emptyCursorIsCursor: boolean;
}

/** A request as the client makes it, before it is encoded. */
export interface RequestMessage {
  jsonrpc?: string;
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
}

/** How server/discover goes out. */
export interface DiscoverSending {
  wire: (message: object) => Uint8Array;
  /** HTTP: another method than POST. */
  httpMethod?: string;
}

/** A request's id and the server's answer. */
export interface Answered {
  id: JsonRpcId;
  response: Received;
}

/** What a tools/call takes instead of a fresh id or progress token. */
export interface CallIds {
  id?: JsonRpcId;
  progressToken?: number;
}

/** A tool the client will call. */
export interface AdmittedTool {
  name: string;
  definition: Record<string, unknown>;
}

/** The seams of the reference client's session: its transports, requests, discovery, listing and call order. */
export interface SessionSeams {
  /** The transports' rules, made before either is opened: change them in place. */
  transportRules?(rules: TransportRules): void;
  /** The session's rules, made as it starts: change them in place. */
  sessionRules?(rules: SessionRules): void;
  /** The rules of every request, made as the client's Rpc is: change them in place. */
  requestRules?(rules: RequestRules): void;
  /** Nothing sent yet over this transport: return bytes (no MCP message) to write first. */
  openingBytes?(kind: TransportKind): Uint8Array | void;
  /** What the `_meta` of a request of `method` holds (`page`: which tools/list page, 0 first): change it in place. */
  metaOptions?(options: MetaOptions, method: string, page?: number): void;
  /** A request made whole, before it is encoded (its params and `_meta` are copies): spoil it in place. */
  requestMessage?(message: RequestMessage): void;
  /** The params of server/discover, `_meta` made: add to them in place. */
  discoverParams?(params: Record<string, unknown>): void;
  /** How server/discover is about to go out over this transport: change it in place. */
  discoverSending?(sending: DiscoverSending, kind: TransportKind): void;
  /** The rules of one walk through the tools/list pages, made as it starts: change them in place. */
  listingRules?(rules: ListingRules): void;
  /** A nextCursor about to be sent back in tools/list: return the cursor to send instead. */
  sentCursor?(cursor: string): string | void;
  /** A tools/list page after the first about to be asked for (`request` asks the server): return its answer instead. */
  laterPage?(cursor: string, request: () => Promise<Answered>): Promise<Answered> | void;
  /** A listed tool about to be admitted, after the names listed before it: return true to leave it out, unsaid. */
  dropsListedTool?(name: string, earlierNames: readonly string[]): boolean | void;
  /** HTTP: a tool about to be rejected for invalid x-mcp-header annotations: return the annotations to keep it with. */
  invalidAnnotations?(annotations: readonly HeaderAnnotation[]): HeaderAnnotation[] | void;
  /** The listing is done, no tool called yet: push messages that expect no answer, sent now in order. */
  messagesAfterListing?(messages: Record<string, unknown>[], listing: { lastId: JsonRpcId; nextId(): JsonRpcId }): void;
  /** The tools admitted, before any is called: act on them (the client awaits what a hook returns). */
  toolsAdmitted?(tools: readonly AdmittedTool[]): Promise<void> | void;
  /** What the first tools/call takes instead of a fresh id or progress token (nothing): set it in place. */
  firstCall?(first: CallIds): void;
  /**
   * The first two tools/calls could go at once, sharing `shared` (a copy of the first's): set what they share in place
   * (`fresh` issues ids and tokens) and return true to send them together.
   */
  concurrentCalls?(shared: CallIds, fresh: { id(): JsonRpcId; progressToken(): number }): boolean | void;
}
