import { NotesStore } from './notes.js';
import { RequestStateSigner } from './request-state.js';

/** Everything the server keeps between requests. None of it changes the tool list except under the shuffled-order defect. */
export interface ServerState {
  notes: NotesStore;
  requestStates: RequestStateSigner;
  /** Whether any tools/list has been answered yet (the server-request defect fires once). */
  answeredToolsList: boolean;
  /** How many tools/list requests have reached the listing, this one included (the shuffled-order defect rotates by it). */
  toolsListRequests: number;
}

export function createServerState(): ServerState {
  return { notes: new NotesStore(), requestStates: new RequestStateSigner(), answeredToolsList: false, toolsListRequests: 0 };
}
