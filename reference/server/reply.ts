import type { ActiveDefects } from './defects/active.js';
import type { Transport } from './defects/seams/handler.js';
import type { HeaderBag } from './http-headers.js';
import type { OutgoingMessage } from './messages.js';
import type { ListingScale } from './scale-tools.js';
import type { ServerState } from './server-state.js';
import type { InitializeSession } from './session.js';

export interface HandlerContext {
  transport: Transport;
  defects: ActiveDefects;
  state: ServerState;
  /** Names the client's connection: the process id on stdio, the client's TCP port on HTTP. */
  connection: string;
  /** HTTP only: the request headers (lower-cased names). */
  headers?: HeaderBag;
  log?: (line: string) => void;
  /** Benchmarks: generated tools appended to the listing, and the page size to serve them with. */
  scale?: ListingScale;
  /** An initialize revision (--protocol-version): the session the message belongs to; absent on 2026-07-28. */
  session?: InitializeSession;
}

/** What a transport must do for one incoming message. */
export type Reply =
  /** Nothing to send (notification, or a stray response on stdio); HTTP answers 202. */
  | { kind: 'none' }
  /** Chaos: never answer. */
  | { kind: 'hang' }
  /** Chaos: write this text instead of a JSON-RPC message. */
  | { kind: 'raw'; text: string }
  /** stdio: send the client this request first; once its answer arrives, reply as `then` says. */
  | { kind: 'ask'; request: OutgoingMessage; then(): Reply }
  /** subscriptions/listen accepted: send the acknowledgement, then keep the stream open for notifications. */
  | {
      kind: 'listen';
      /** Absent only under the listen-no-ack defect. */
      ack?: OutgoingMessage;
      /** Registers the stream's writer; returns the function that ends the subscription. */
      open(send: (message: OutgoingMessage) => void): () => void;
    }
  /**
   * A JSON-RPC batch handled (2025-03-26): the messages its requests sent first, then their responses as one array
   * (none: nothing to answer).
   */
  | { kind: 'batch'; before: OutgoingMessage[]; responses: OutgoingMessage[] }
  | {
      kind: 'send';
      /** In order; the response to the request is last. */
      messages: OutgoingMessage[];
      /** HTTP status for the response. */
      status: number;
      /** HTTP: send as an SSE stream even without --sse (there are messages before the response). */
      stream: boolean;
      /** Chaos: exit the process with this code once the messages are written. */
      exitCode?: number;
    };
