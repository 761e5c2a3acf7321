import type { JsonRpcId } from '../../../../src/core/jsonrpc.js';
import type { OutgoingMessage } from '../../messages.js';
import type { ProtocolError } from '../../protocol-error.js';
import type { RequestMeta } from '../../request-meta.js';
import type { JsonObject } from './json.js';

export type Transport = 'stdio' | 'http';

/** What the server does instead of answering: never answer, write text that is no JSON-RPC, or send these messages. */
export type ReplacedReply =
  | { kind: 'hang' }
  | { kind: 'raw'; text: string }
  | { kind: 'send'; messages: OutgoingMessage[]; status: number; stream: boolean; exitCode?: number };

/** The rules the server holds incoming messages to, each as a conforming server has it. */
export interface MessageRules {
  /** A session whose revision has JSON-RPC batches (2025-03-26) receives them. */
  batchesReceived: boolean;
  /** server/discover is served. */
  discoverServed: boolean;
  /** An io.modelcontextprotocol/logLevel in `_meta` must be a logging level (else -32602). */
  logLevelChecked: boolean;
  /** A protocolVersion the server does not support is refused with -32022. */
  versionChecked: boolean;
  /** A tools/call of a tool the server does not have is refused before its HTTP headers are validated. */
  toolLookupBeforeHeaders: boolean;
}

/** A request as received (params an object, {} when absent), about to be answered. */
export interface ReceivedRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: JsonObject;
}

/** The notifications a tools/call sends with its response, and what its `_meta` asked for. */
export interface CallNotifications {
  readonly progressToken?: string | number;
  readonly logLevel?: string;
  /** notifications/message sent before the response: none, this server logs nothing of its own. */
  logs: OutgoingMessage[];
  /** notifications/progress sent before the response: one ("Tool call finished") when the call has a progressToken. */
  progress: OutgoingMessage[];
  /** Sent after the response: nothing. */
  after: OutgoingMessage[];
}

/** A request answered: what the server is about to send for it. */
export interface AnsweredRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly transport: Transport;
  /** A tools/list, and the first this server answers. */
  readonly firstListing: boolean;
  /** A tools/list, and the first its session (of an initialize revision) answers. */
  readonly firstListingOfSession: boolean;
  /** Sent before the response: notifications scoped to the request. */
  before: OutgoingMessage[];
  response: OutgoingMessage;
  /** Sent after the response. */
  after: OutgoingMessage[];
  /** Set: the process exits with this code once the messages are written. */
  exitCode?: number;
}

/** A subscriptions/listen the server has accepted and is about to open. */
export interface OpeningListen {
  /** The listen request's id, which names the subscription. */
  readonly id: JsonRpcId;
  readonly transport: Transport;
  /** What notifications/subscriptions/acknowledged carries; null: none is sent. */
  acknowledgement: { subscriptionId: JsonRpcId; notifications: JsonObject } | null;
  /** Sent on the stream as soon as it is open, after the acknowledgement: nothing. */
  firstMessages: OutgoingMessage[];
}

/** The seams of the reference server's handler: what it makes of each message it receives (see ../seams.ts). */
export interface HandlerSeams {
  /** The rules for one incoming message, conforming: switch one in place. */
  messageRules?(rules: MessageRules): void;
  /** A notification taken in, which the server answers with nothing: return a reply to send instead. */
  notificationReceived?(method: string, params: unknown, transport: Transport): ReplacedReply | void;
  /** A request about to be answered: return what the server does instead. */
  requestReceived?(request: ReceivedRequest): ReplacedReply | void;
  /**
   * A tools/list about to be answered, asked once per session of an initialize revision and once per server
   * (`scope`): return a request to send the client first, whose answer the listing waits for.
   */
  requestBeforeListing?(scope: 'session' | 'server'): OutgoingMessage | void;
  /** The error a 2026-07-28 server answers initialize with: return the one to answer instead. */
  initializeRefusal?(error: ProtocolError): ProtocolError | void;
  /** The params (as sent, possibly absent) whose `_meta` the server is about to read: return others to read instead. */
  paramsForMeta?(params: unknown): unknown;
  /**
   * What the server read of a request's `_meta` (or its session), the connection the request came on, and the client
   * capabilities the server keeps by connection (for hooks; empty otherwise): spoil the meta in place.
   */
  requestMeta?(meta: RequestMeta, connection: string, rememberedCapabilities: Map<string, JsonObject>): void;
  /** The notifications a tools/call that ran sends with its response: spoil them in place. */
  callNotifications?(notifications: CallNotifications): void;
  /** The HTTP status a JSON-RPC error answering a request goes with: return another. */
  errorStatus?(code: number, status: number): number | void;
  /** A request answered (its result or error made, the listen streams excepted): spoil what is sent in place. */
  requestAnswered?(answered: AnsweredRequest): void;
  /**
   * A result of a session of an initialize revision, shaped to that revision, with the method and params of the
   * request it answers: spoil it in place.
   */
  sessionResult?(method: string, result: JsonObject, params: JsonObject): void;
  /** A subscriptions/listen about to be opened: spoil its acknowledgement and first messages in place. */
  listenOpening?(listen: OpeningListen): void;
  /**
   * Whether a subscriptions/listen stream about to be opened is sent notifications/tools/list_changed, as it asked or
   * not: return the decision instead.
   */
  toolsListChangedSent?(asked: boolean): boolean | void;
}
