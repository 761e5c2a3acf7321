/** Shapes that differ on the 2025-11-25 wire (initialize handshake, no resultType or cache hints). */
import { ContentBlock } from './content-blocks.js';
import { Implementation, MetaObject } from './implementation.js';
import { ServerCapabilities as CurrentServerCapabilities } from './server-capabilities.js';
import { toolSchema } from './tools.js';

const { tools, resources, prompts, completions, logging, experimental } = CurrentServerCapabilities.properties;

/** No `extensions` yet; tasks were a core capability. */
export const ServerCapabilities = {
  type: 'object',
  properties: {
    tools,
    resources,
    prompts,
    completions,
    logging,
    experimental,
    tasks: { type: 'object' },
  },
} as const;

export const InitializeResult = {
  type: 'object',
  required: ['protocolVersion', 'capabilities', 'serverInfo'],
  properties: {
    protocolVersion: { type: 'string' },
    capabilities: ServerCapabilities,
    serverInfo: Implementation,
    instructions: { type: 'string' },
    _meta: MetaObject,
  },
} as const;

/** 2025-11-25 types both tool schemas as `{ $schema?, type: "object", properties?, required? }`. */
export const ObjectSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    $schema: { type: 'string' },
    type: { const: 'object' },
    properties: { type: 'object', additionalProperties: { type: 'object' } },
    required: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const Tool = toolSchema(ObjectSchema, ObjectSchema, {
  execution: {
    type: 'object',
    properties: { taskSupport: { type: 'string', enum: ['forbidden', 'optional', 'required'] } },
  },
} as const);

export const ListToolsResult = {
  type: 'object',
  required: ['tools'],
  properties: {
    tools: { type: 'array', items: Tool },
    nextCursor: { type: 'string' },
    _meta: MetaObject,
  },
} as const;

export const CallToolResult = {
  type: 'object',
  required: ['content'],
  properties: {
    content: { type: 'array', items: ContentBlock },
    structuredContent: { type: 'object' },
    isError: { type: 'boolean' },
    _meta: MetaObject,
  },
} as const;
