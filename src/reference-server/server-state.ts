import { NotesStore } from './notes.js';
import { RequestStateSigner } from './request-state.js';

/** Everything the server keeps between requests. None of it changes the tool list. */
export interface ServerState {
  notes: NotesStore;
  requestStates: RequestStateSigner;
  /** Whether any tools/list has been answered yet (the server-request defect fires once). */
  answeredToolsList: boolean;
}

export function createServerState(): ServerState {
  return { notes: new NotesStore(), requestStates: new RequestStateSigner(), answeredToolsList: false };
}
