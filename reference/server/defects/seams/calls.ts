import type { ProtocolError } from '../../protocol-error.js';
import type { StateBinding } from '../../request-state.js';
import type { JsonObject } from './json.js';

/** How tools/call meets params of the wrong type: each refused with -32602 unless a hook relaxes it. */
export interface CallParamsRules {
  /** `arguments` that are not an object: refused, or taken as {}. */
  nonObjectArguments: 'refused' | 'empty';
  /** `inputResponses` that are not an object: refused, or taken as absent. */
  nonObjectInputResponses: 'refused' | 'absent';
}

/** What confirm_action holds a call to: every rule on unless a hook turns it off. */
export interface ConfirmRules {
  /** A call whose client declared no form elicitation is refused with -32021 instead of asked. */
  needsFormElicitation: boolean;
  /** A retry's requestState must be one the server issued for this tool call. */
  verifiesRequestState: boolean;
}

/** The seams of tools/call: its params, the tool it finds, the arguments it checks, the tools' answers and traces. */
export interface CallSeams {
  /** The rules tools/call reads its params by, conforming: relax them in place. */
  callParamsRules?(rules: CallParamsRules): void;
  /** The names of the tools defects add to the server's own (defects/search-tools.ts holds them): push one to add. */
  addedTools?(names: string[]): void;
  /** A tools/call of a tool the server does not have, about to be -32602: return the result or error to answer. */
  unknownTool?(name: string): JsonObject | ProtocolError | void;
  /** A call's arguments before its tool checks them: return the arguments to go on with, or the error to answer. */
  callArguments?(name: string, args: JsonObject): JsonObject | ProtocolError | void;
  /** A region a search_docs call names (every one is served): return true to refuse it with -32602. */
  refusesRegion?(region: string): boolean | void;
  /** A call's arguments, about to be checked against its tool's inputSchema: return true to skip the check. */
  skipsInputCheck?(name: string, args: JsonObject): boolean | void;
  /** A tool's answer, without its _meta: return the result to answer instead. */
  toolResult?(name: string, result: JsonObject): JsonObject | void;
  /** A tool has run with valid arguments: a hook may leave a trace of the call (a file). */
  toolRan?(name: string, args: JsonObject): void;
  /** The server starts, before it reads a message: a hook may set up what a later call spoils (a file). */
  serverStarts?(): void;
  /** delete_note has no note with this id, about to answer a tool error: return the text of a success instead. */
  missingNote?(id: string): string | void;
  /** The rules confirm_action holds a call to, conforming: turn one off in place. */
  confirmRules?(rules: ConfirmRules): void;
  /** The -32021 confirm_action refuses a client without form elicitation with: return the error to send instead. */
  missingCapabilityError?(error: ProtocolError): ProtocolError | void;
  /** A call confirm_action is about to serve (ask, or check a retry): return the result to answer instead. */
  confirmCall?(inputResponses: JsonObject | undefined, action: string): JsonObject | void;
  /** What confirm_action's requestState is bound to (the connection is the client's): spoil it in place. */
  requestStateBinding?(binding: StateBinding, connection: string | undefined): void;
  /** A retry of confirm_action whose requestState holds, and what it answers: return an error to answer instead. */
  confirmRetry?(asked: string, inputResponses: JsonObject): ProtocolError | void;
  /** The form elicitation confirm_action asks the action with: return the request to send instead. */
  elicitationRequest?(request: JsonObject, action: string): JsonObject | void;
  /** confirm_action's input_required result, made whole: spoil it in place. */
  inputRequiredResult?(result: JsonObject): void;
}
