/** Identity objects: icons, `Implementation` (serverInfo) and the result `_meta` that carries it. */

export const Icon = {
  type: 'object',
  required: ['src'],
  properties: {
    src: { type: 'string', format: 'uri' },
    mimeType: { type: 'string' },
    sizes: { type: 'array', items: { type: 'string' } },
    theme: { type: 'string', enum: ['light', 'dark'] },
  },
} as const;

export const Icons = { type: 'array', items: Icon } as const;

export const Implementation = {
  type: 'object',
  required: ['name', 'version'],
  properties: {
    name: { type: 'string' },
    version: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    websiteUrl: { type: 'string', format: 'uri' },
    icons: Icons,
  },
} as const;

/** A `_meta` object whose key rules this schema does not enforce. */
export const MetaObject = { type: 'object' } as const;

export const ResultMeta = {
  type: 'object',
  properties: {
    'io.modelcontextprotocol/serverInfo': Implementation,
  },
} as const;
