/**
 * The 2025-03-26 wire, as its schema.json states it: the 2025-06-18 shapes without tool titles, output schemas and
 * `_meta`, `structuredContent`, resource links, `_meta` on content and `lastModified` in annotations (all from
 * 2025-06-18); and the only revision whose JSON-RPC messages include batches.
 */
import {
  Annotations as CurrentAnnotations,
  AudioContent as CurrentAudioContent,
  BlobResourceContents,
  contentBlockOf,
  EmbeddedResource as CurrentEmbeddedResource,
  ImageContent as CurrentImageContent,
  resourceContentsOf,
  TextContent as CurrentTextContent,
  TextResourceContents,
} from './content-blocks.js';
import { JSONRPCResultResponse, messageOf } from './json-rpc-envelope.js';
import * as Newer from './revision-2025-06-18.js';
import { revise } from './revise.js';

export { JSONRPCResultResponse };
export const { JSONRPCRequest, JSONRPCNotification, JSONRPCErrorResponse, ServerCapabilities } = Newer;

const Annotations = revise(CurrentAnnotations, { drop: ['lastModified'] });

export const TextContent = revise(CurrentTextContent, { drop: ['_meta'], set: { annotations: Annotations } });
export const ImageContent = revise(CurrentImageContent, { drop: ['_meta'], set: { annotations: Annotations } });
export const AudioContent = revise(CurrentAudioContent, { drop: ['_meta'], set: { annotations: Annotations } });
export const EmbeddedResource = revise(CurrentEmbeddedResource, {
  drop: ['_meta'],
  set: {
    annotations: Annotations,
    resource: resourceContentsOf(
      revise(TextResourceContents, { drop: ['_meta'] }),
      revise(BlobResourceContents, { drop: ['_meta'] }),
    ),
  },
});

export const ContentBlock = contentBlockOf({
  text: TextContent,
  image: ImageContent,
  audio: AudioContent,
  resource: EmbeddedResource,
});

const single = messageOf(JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse, JSONRPCErrorResponse);

export const JSONRPCBatchResponse = { type: 'array', items: single.else } as const;

/**
 * One message, or a batch: an array of requests and notifications, or of responses, told apart by whether an item
 * has a method.
 */
export const JSONRPCMessage = {
  if: { type: 'array' },
  then: {
    type: 'array',
    if: { type: 'array', contains: { type: 'object', required: ['method'] } },
    then: { type: 'array', items: single.then },
    else: JSONRPCBatchResponse,
  },
  else: single,
} as const;

export const Implementation = revise(Newer.Implementation, { drop: ['title'] });

export const InitializeResult = revise(Newer.InitializeResult, { set: { serverInfo: Implementation } });

export const Tool = revise(Newer.Tool, { drop: ['title', 'outputSchema', '_meta'] });

export const ListToolsResult = revise(Newer.ListToolsResult, { set: { tools: { type: 'array', items: Tool } } });

export const CallToolResult = revise(Newer.CallToolResult, {
  drop: ['structuredContent'],
  set: { content: { type: 'array', items: ContentBlock } },
});
