/**
 * The 2024-11-05 wire, as its schema.json states it: the 2025-03-26 shapes without tool annotations, audio content
 * and the completions capability (all from 2025-03-26), and without JSON-RPC batches.
 */
import { JSONRPCResultResponse, messageOf } from './json-rpc-envelope.js';
import * as Newer from './revision-2025-03-26.js';
import { contentBlockOf } from './content-blocks.js';
import { revise } from './revise.js';

export { JSONRPCResultResponse };
export const { JSONRPCRequest, JSONRPCNotification, JSONRPCErrorResponse, Implementation } = Newer;

export const JSONRPCMessage = messageOf(
  JSONRPCRequest,
  JSONRPCNotification,
  JSONRPCResultResponse,
  JSONRPCErrorResponse,
);

export const ServerCapabilities = revise(Newer.ServerCapabilities, { drop: ['completions'] });

export const InitializeResult = revise(Newer.InitializeResult, { set: { capabilities: ServerCapabilities } });

export const ContentBlock = contentBlockOf({
  text: Newer.TextContent,
  image: Newer.ImageContent,
  resource: Newer.EmbeddedResource,
});

export const Tool = revise(Newer.Tool, { drop: ['annotations'] });

export const ListToolsResult = revise(Newer.ListToolsResult, { set: { tools: { type: 'array', items: Tool } } });

export const CallToolResult = revise(Newer.CallToolResult, {
  set: { content: { type: 'array', items: ContentBlock } },
});
