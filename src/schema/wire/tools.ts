import { CACHE_HINT_REQUIRED, CacheScope, TtlMs } from './cache-hints.js';
import { ContentBlock } from './content-blocks.js';
import { Icons, MetaObject, ResultMeta } from './implementation.js';
import { CompleteResultType } from './result-type.js';

export const ToolAnnotations = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    readOnlyHint: { type: 'boolean' },
    destructiveHint: { type: 'boolean' },
    idempotentHint: { type: 'boolean' },
    openWorldHint: { type: 'boolean' },
  },
} as const;

/** Arguments are always a JSON object, so the root `type` is pinned; any other 2020-12 keyword may follow. */
export const ToolInputSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { const: 'object' },
    $schema: { type: 'string' },
  },
} as const;

/** Since 2026-07-28 the root of an output schema is not restricted (arrays and primitives are fine). */
export const ToolOutputSchema = {
  type: 'object',
  properties: {
    $schema: { type: 'string' },
  },
} as const;

/**
 * The Tool object of a revision: the fields both revisions share, its own input and output schema rules, and any more
 * fields.
 */
export function toolSchema<In, Out, Extra extends Record<string, unknown>>(
  inputSchema: In,
  outputSchema: Out,
  extra: Extra,
) {
  return {
    type: 'object',
    required: ['name', 'inputSchema'],
    properties: {
      name: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      icons: Icons,
      inputSchema,
      outputSchema,
      annotations: ToolAnnotations,
      ...extra,
      _meta: MetaObject,
    },
  } as const;
}

export const Tool = toolSchema(ToolInputSchema, ToolOutputSchema, {});

export const ListToolsResult = {
  type: 'object',
  required: ['resultType', 'tools', ...CACHE_HINT_REQUIRED],
  properties: {
    resultType: CompleteResultType,
    tools: { type: 'array', items: Tool },
    nextCursor: { type: 'string' },
    ttlMs: TtlMs,
    cacheScope: CacheScope,
    _meta: ResultMeta,
  },
} as const;

/** The `resultType: "complete"` shape of a `tools/call` result; `structuredContent` may be any JSON value. */
export const CallToolResult = {
  type: 'object',
  required: ['resultType', 'content'],
  properties: {
    resultType: CompleteResultType,
    content: { type: 'array', items: ContentBlock },
    structuredContent: {},
    isError: { type: 'boolean' },
    _meta: ResultMeta,
  },
} as const;
