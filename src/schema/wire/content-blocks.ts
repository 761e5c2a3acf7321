import { Icons, MetaObject } from './implementation.js';

/**
 * Canonical base64 (RFC 4648 §4, padded, no whitespace). Every repetition consumes exactly four
 * characters and the tail alternatives are fixed-length, so matching is linear: no catastrophic
 * backtracking on long or hostile input.
 */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

const Base64String = { type: 'string', pattern: BASE64_PATTERN } as const;

export const Role = { type: 'string', enum: ['user', 'assistant'] } as const;

export const Annotations = {
  type: 'object',
  properties: {
    audience: { type: 'array', items: Role },
    priority: { type: 'number', minimum: 0, maximum: 1 },
    // schema.json gives no format: its description asks for ISO 8601 with a lower-case "should".
    lastModified: { type: 'string' },
  },
} as const;

export const TextContent = {
  type: 'object',
  required: ['type', 'text'],
  properties: {
    type: { const: 'text' },
    text: { type: 'string' },
    annotations: Annotations,
    _meta: MetaObject,
  },
} as const;

export const ImageContent = {
  type: 'object',
  required: ['type', 'data', 'mimeType'],
  properties: {
    type: { const: 'image' },
    data: Base64String,
    mimeType: { type: 'string' },
    annotations: Annotations,
    _meta: MetaObject,
  },
} as const;

export const AudioContent = {
  type: 'object',
  required: ['type', 'data', 'mimeType'],
  properties: {
    type: { const: 'audio' },
    data: Base64String,
    mimeType: { type: 'string' },
    annotations: Annotations,
    _meta: MetaObject,
  },
} as const;

export const ResourceLink = {
  type: 'object',
  required: ['type', 'uri', 'name'],
  properties: {
    type: { const: 'resource_link' },
    uri: { type: 'string', format: 'uri' },
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    mimeType: { type: 'string' },
    size: { type: 'integer' },
    icons: Icons,
    annotations: Annotations,
    _meta: MetaObject,
  },
} as const;

export const TextResourceContents = {
  type: 'object',
  required: ['uri', 'text'],
  properties: {
    uri: { type: 'string', format: 'uri' },
    mimeType: { type: 'string' },
    text: { type: 'string' },
    _meta: MetaObject,
  },
} as const;

export const BlobResourceContents = {
  type: 'object',
  required: ['uri', 'blob'],
  properties: {
    uri: { type: 'string', format: 'uri' },
    mimeType: { type: 'string' },
    blob: Base64String,
    _meta: MetaObject,
  },
} as const;

/** Blob contents when `blob` is present, text contents otherwise. */
export function resourceContentsOf(text: object, blob: object) {
  return {
    type: 'object',
    if: { type: 'object', required: ['blob'] },
    then: blob,
    else: text,
  } as const;
}

export const ResourceContents = resourceContentsOf(TextResourceContents, BlobResourceContents);

export const EmbeddedResource = {
  type: 'object',
  required: ['type', 'resource'],
  properties: {
    type: { const: 'resource' },
    resource: ResourceContents,
    annotations: Annotations,
    _meta: MetaObject,
  },
} as const;

const BLOCKS_BY_TYPE = {
  text: TextContent,
  image: ImageContent,
  audio: AudioContent,
  resource_link: ResourceLink,
  resource: EmbeddedResource,
} as const;

function whenTypeIs(type: string, then: object) {
  return { if: { type: 'object', required: ['type'], properties: { type: { const: type } } }, then } as const;
}

/**
 * The content blocks of a revision, discriminated on `type`, so a faulty block reports its own members rather than a
 * bare anyOf failure.
 */
export function contentBlockOf(blocksByType: Readonly<Record<string, object>>) {
  return {
    type: 'object',
    required: ['type'],
    properties: {
      type: { type: 'string', enum: Object.keys(blocksByType) },
    },
    allOf: Object.entries(blocksByType).map(([type, schema]) => whenTypeIs(type, schema)),
  } as const;
}

export const ContentBlock = contentBlockOf(BLOCKS_BY_TYPE);
