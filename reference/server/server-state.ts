import { NotesStore } from './notes.js';
import { RequestStateSigner } from './request-state.js';
import { SubscriptionRegistry } from './subscriptions.js';

/**
 * Everything the server keeps between requests. None of it changes the tool list, except toggle_beta_tools (and the
 * shuffled-order defect).
 */
export interface ServerState {
  notes: NotesStore;
  requestStates: RequestStateSigner;
  /** Whether any tools/list has been answered yet (the server-request defect fires once). */
  answeredToolsList: boolean;
  /** Whether the server-request-waits defect has sent its request (it waits for one answer only). */
  askedBeforeListing: boolean;
  /**
   * How many tools/list requests have reached the listing, this one included (the shuffled-order defect rotates by it).
   */
  toolsListRequests: number;
  /** Whether toggle_beta_tools has added the beta tool to the listing. */
  betaTools: boolean;
  subscriptions: SubscriptionRegistry;
  /** Connections that have made a tools/call (the tools-change-after-call defect lists an extra tool to them). */
  callers: Set<string>;
  /** The capabilities-remembered defect: every client capability declared so far, by connection. */
  rememberedCapabilities: Map<string, Record<string, unknown>>;
  /** The cursor-single-use defect: the cursors each connection has used. */
  usedCursors: Map<string, Set<string>>;
}

export function createServerState(): ServerState {
  return {
    notes: new NotesStore(),
    requestStates: new RequestStateSigner(),
    answeredToolsList: false,
    askedBeforeListing: false,
    toolsListRequests: 0,
    betaTools: false,
    subscriptions: new SubscriptionRegistry(),
    callers: new Set(),
    rememberedCapabilities: new Map(),
    usedCursors: new Map(),
  };
}
