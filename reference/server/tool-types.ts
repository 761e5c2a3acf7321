import type { ActiveDefects } from './defects/active.js';
import type { ServerState } from './server-state.js';

export type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool exactly as tools/list shows it. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  icons?: { src: string; mimeType?: string; sizes?: string[] }[];
  annotations: ToolAnnotations;
}

export type ContentBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface CompleteOutcome {
  resultType: 'complete';
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: true;
}

export interface InputRequiredOutcome {
  resultType: 'input_required';
  inputRequests: Record<string, unknown>;
  requestState: string;
}

export type ToolOutcome = CompleteOutcome | InputRequiredOutcome;

/** A validated tools/call, ready for the tool to run. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  state: ServerState;
  /** The server's defects: a tool lets them in at its seams (confirm_action, delete_note, toggle_beta_tools). */
  defects: ActiveDefects;
  /** The client's connection (HandlerContext.connection), for the defects that tie state to it. */
  connection?: string;
}

export interface ReferenceTool {
  definition: ToolDefinition;
  /** Runs with arguments that already passed the inputSchema; may throw a ProtocolError. */
  run(call: ToolCall): ToolOutcome;
}

export function textResult(text: string): CompleteOutcome {
  return { resultType: 'complete', content: [{ type: 'text', text }] };
}

/** Structured content plus the serialized JSON in a text block, for older clients. */
export function structuredResult(value: unknown): CompleteOutcome {
  return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function toolError(text: string): CompleteOutcome {
  return { resultType: 'complete', content: [{ type: 'text', text }], isError: true };
}
