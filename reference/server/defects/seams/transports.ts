import type { OutgoingMessage } from '../../messages.js';
import type { JsonObject } from './json.js';

/** Request headers as node:http exposes them: names lower-cased. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** How the Streamable HTTP server treats what it is sent; the defaults are the conforming rules. */
export interface HttpRules {
  /** A request whose Origin names neither this host nor a loopback one is refused, with `foreignOriginStatus`. */
  foreignOriginRefused: boolean;
  foreignOriginStatus: number;
  /** The status of a POST holding one notification or response (no request). */
  acceptedStatus: number;
  /** A DELETE naming a session ends it: later requests naming it get 404. */
  deleteEndsSession: boolean;
}

/** How one standard header is checked against the body. */
export interface HeaderRule {
  required: boolean;
  comparedWithBody: boolean;
  /** The value matches the body's whatever its case. */
  anyCase: boolean;
}

/** How the Mcp-Param-* headers of a tools/call are checked against the arguments they carry. */
export interface ParamHeaderRule {
  /** Required when its argument is set to a string, number or boolean. */
  required: boolean;
  /** Required when its argument is null too. */
  requiredForNull: boolean;
  /** Refused whatever its value. */
  refused: boolean;
  /** The =?base64?…?= form is decoded before the comparison. */
  base64Decoded: boolean;
  /** Characters outside visible ASCII, space and tab are refused (when the value is decoded). */
  charsChecked: boolean;
  comparedWithBody: boolean;
}

/** The Streamable HTTP header/body consistency rules (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*). */
export interface HeaderRules {
  protocolVersion: HeaderRule;
  method: HeaderRule;
  name: HeaderRule;
  param: ParamHeaderRule;
}

/** How the stdio server treats its input; the defaults are the conforming rules. */
export interface StdioRules {
  /** A notifications/cancelled silences the call it names: its held answer is dropped. */
  cancellationSilences: boolean;
  /** Why the server stays up once stdin closes (logged then); absent, it exits when done writing. */
  stayUpAfterEof?: string;
}

/** How the stdio server holds a request's answer back, beyond the latency it was started with. */
export interface HeldAnswer {
  delayMs: number;
  /** What the call still writes `afterMs` after a cancellation that dropped its answer. */
  saidAfterCancel?: { afterMs: number; text: string };
}

/** The seams of the reference server's transports: Streamable HTTP (and its header rules) and stdio. */
export interface TransportSeams {
  /** The HTTP server's rules, made once as it starts: change them in place. */
  httpRules?(rules: HttpRules): void;
  /** The id a new Streamable HTTP session was minted: return the id to give it instead. */
  httpSessionId?(minted: string): string | void;
  /** The headers every HTTP response starts with (none): add to them in place. */
  httpResponseHeaders?(headers: Record<string, string>): void;
  /** A request's raw header list (name, value, …): return the headers the handler reads instead of node's. */
  httpRequestHeaders?(rawHeaders: readonly string[]): RequestHeaders | void;
  /** The headers of a POST about to be served: return the status and JSON-RPC error to refuse it with instead. */
  httpPostRefusal?(headers: RequestHeaders): { status: number; error: JsonObject } | void;
  /** A request about to get 405 (its method is not POST): return a JSON body to answer 200 with instead. */
  httpMethodNotAllowed?(request: { method: string; sessions: boolean }): JsonObject | void;
  /** A batch that held no request, about to be accepted with 202 and no body: return a JSON body to answer 200 with. */
  httpAcceptedBatch?(): OutgoingMessage[] | void;
  /** The headers of a response whose body is this JSON message: spoil them in place. */
  httpJsonHeaders?(headers: Record<string, string>, message: OutgoingMessage | OutgoingMessage[]): void;
  /** The headers of a response that starts an SSE stream: spoil them in place. */
  httpSseHeaders?(headers: Record<string, string>): void;
  /** The header rules of a request about to be checked: change them in place. */
  headerRules?(rules: HeaderRules): void;
  /** The stdio server's rules, made once as it starts: change them in place. */
  stdioRules?(rules: StdioRules): void;
  /** The stdio server is starting: return text to write on stdout before anything else. */
  stdoutPreamble?(): string | void;
  /**
   * The stdio server is starting: return how it encodes a message on stdout instead of as a UTF-8 JSON line (the
   * function returns nothing to leave a message as it is).
   */
  stdoutEncoder?(): ((message: OutgoingMessage) => Buffer | void) | void;
  /** A request read on stdin and the messages that answer it: return how long (and how) its answer is held back. */
  stdioHeldAnswer?(line: string, messages: readonly OutgoingMessage[]): HeldAnswer | void;
}
