/**
 * The 2025-06-18 wire, as its schema.json states it: the 2025-11-25 shapes without icons, tool execution, tasks and
 * the `$schema` of tool schemas (all from 2025-11-25), and a JSON-RPC envelope whose error responses carry an `id` and
 * whose `params` hold a typed `_meta`.
 */
import {
  AudioContent,
  contentBlockOf,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
} from './content-blocks.js';
import { Implementation as CurrentImplementation, MetaObject } from './implementation.js';
import {
  JSONRPCErrorResponse as CurrentErrorResponse,
  JSONRPCNotification as CurrentNotification,
  JSONRPCRequest as CurrentRequest,
  JSONRPCResultResponse,
  messageOf,
} from './json-rpc-envelope.js';
import * as Newer from './revision-2025-11-25.js';
import { revise } from './revise.js';
import { toolSchema } from './tools.js';

export { JSONRPCResultResponse };

const ProgressToken = { type: ['string', 'integer'] } as const;

export const JSONRPCRequest = revise(CurrentRequest, {
  set: {
    params: { type: 'object', properties: { _meta: { type: 'object', properties: { progressToken: ProgressToken } } } },
  },
});

export const JSONRPCNotification = revise(CurrentNotification, {
  set: { params: { type: 'object', properties: { _meta: MetaObject } } },
});

/**
 * `id` is required until 2025-11-25; null stays allowed, as JSON-RPC 2.0 answers a request whose id could not be read.
 */
export const JSONRPCErrorResponse = { ...CurrentErrorResponse, required: ['jsonrpc', 'id', 'error'] } as const;

export const JSONRPCMessage = messageOf(
  JSONRPCRequest,
  JSONRPCNotification,
  JSONRPCResultResponse,
  JSONRPCErrorResponse,
);

export const Implementation = revise(CurrentImplementation, { drop: ['description', 'websiteUrl', 'icons'] });

export const ServerCapabilities = revise(Newer.ServerCapabilities, { drop: ['tasks'] });

export const InitializeResult = revise(Newer.InitializeResult, {
  set: { capabilities: ServerCapabilities, serverInfo: Implementation },
});

export const ContentBlock = contentBlockOf({
  text: TextContent,
  image: ImageContent,
  audio: AudioContent,
  resource_link: revise(ResourceLink, { drop: ['icons'] }),
  resource: EmbeddedResource,
});

/** Both tool schemas are `{ type: "object", properties?, required? }`. */
const ObjectSchema = revise(Newer.ObjectSchema, { drop: ['$schema'] });

export const Tool = revise(toolSchema(ObjectSchema, ObjectSchema, {}), { drop: ['icons'] });

export const ListToolsResult = revise(Newer.ListToolsResult, { set: { tools: { type: 'array', items: Tool } } });

export const CallToolResult = revise(Newer.CallToolResult, {
  set: { content: { type: 'array', items: ContentBlock } },
});
