import type { JsonRpcId } from '../../../../src/core/jsonrpc.js';
import type { InitializeConnection, ServerRequestReply } from '../../initialize-connection.js';
import type { ValidationRules } from '../../output-validation.js';

/** The MRTR fields of one tools/call request: the id (undefined: a fresh one), arguments, and what it echoes. */
export interface CallRound {
  id: JsonRpcId | undefined;
  arguments: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /** The last requestState this call's results issued (none, or an earlier one when the last result had none). */
  lastRequestState?: string;
}

/** How tools/call meets its answers, each rule as a conforming client has it. */
export interface CallRules {
  /** A HeaderMismatch (-32020) has the tools listed again and the call retried with the headers it asks for, once. */
  refreshesOnHeaderMismatch: boolean;
  /** A result whose resultType is neither complete nor input_required is an error (else printed as a result). */
  unknownResultTypeRefused: boolean;
  /** How structuredContent is validated against the tool's outputSchema. */
  validation: ValidationRules;
}

/** A request the client sends for nothing but its own sake; its answer is ignored. */
export interface AsideRequest {
  method: string;
  params: Record<string, unknown>;
}

/** What the initialize mode sends its later HTTP requests with, once initialize is answered. */
export type InitializedConnection = Pick<InitializeConnection, 'protocolVersion' | 'omitSessionOn'>;

/** The rules the Mcp-Param-* headers of a tools/call are mirrored by, each as a conforming client has it. */
export interface ParamHeaderRules {
  /** Annotated arguments are mirrored at all. */
  mirrored: boolean;
  /** A null argument has no header. */
  omitsNull: boolean;
}

/** What the initialize mode holds its session to, each rule as a conforming client has it. */
export interface InitializeModeRules {
  /** After a 404 on its session, a new initialize before the request is sent again. */
  reinitializesAfter404: boolean;
}

/** The seams of the reference client's calls: tools/call, its headers, and the initialize mode (see ../seams.ts). */
export interface CallSeams {
  /** The rules one tools/call goes by, conforming: change one in place. */
  callRules?(rules: CallRules): void;
  /** A tools/call's fresh `_meta`, before its progressToken: spoil it in place. */
  callMeta?(meta: Record<string, unknown>): void;
  /** A call's first request, and the last requestState any call's result issued: spoil the request in place. */
  firstRound?(round: CallRound, lastIssued: string | undefined): void;
  /** An MRTR retry, made conforming, and the id of the request it retries: spoil the retry in place. */
  retryRound?(round: CallRound, retriedId: JsonRpcId): void;
  /** A tools/call answered with an error other than HeaderMismatch, not retried yet: return true to re-list, retry. */
  relistsAfterError?(code: unknown): boolean | void;
  /** A HeaderMismatch about to have the tools listed again: return a request to send first. */
  requestBeforeRelisting?(): AsideRequest | void;
  /** The standard HTTP headers of a message (method undefined: it has none), made: spoil them in place. */
  httpHeaders?(headers: Record<string, string>, method: string | undefined, toolName: unknown): void;
  /** The rules one tools/call's Mcp-Param-* headers are mirrored by, conforming: change one in place. */
  paramHeaderRules?(rules: ParamHeaderRules): void;
  /** An argument's header text (undefined: it has none, no header): return the text to send instead. */
  paramHeaderText?(value: unknown, text: string | undefined): string | void;
  /** An Mcp-Param-* text that is not header-safe, about to be Base64-encoded: return the value to send instead. */
  paramHeaderValue?(text: string): string | void;
  /** The initialize mode about to initialize its first session: return a request to send first. */
  requestBeforeInitialize?(): AsideRequest | void;
  /** The id the initialize mode gives a request (first: the first of its method): return the id to send instead. */
  initializeModeId?(method: string, id: number, first: boolean): JsonRpcId | void;
  /** The initialize mode's rules, conforming: change one in place. */
  initializeModeRules?(rules: InitializeModeRules): void;
  /** What the initialize mode's later requests go with, set from initialize's result: spoil it in place. */
  initializedConnection?(connection: InitializedConnection): void;
  /** notifications/initialized, about to be sent: return the messages to send instead (none: nothing). */
  initializedNotification?(notification: Record<string, unknown>): unknown[] | void;
  /** A server request (first: the session's first) about to be answered: return a message to send first. */
  serverRequestReceived?(id: unknown, first: boolean): Record<string, unknown> | void;
  /** The reply to a server request (first: the session's first): return the reply to send instead. */
  serverRequestReply?(reply: ServerRequestReply, id: unknown, first: boolean): ServerRequestReply | void;
}
