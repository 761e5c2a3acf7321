/** Capabilities a server advertises. Open set: keys not listed here are allowed. */

const ListChanged = { type: 'boolean' } as const;
const SettingsObject = { type: 'object' } as const;
const SettingsByKey = { type: 'object', additionalProperties: SettingsObject } as const;

export const ServerCapabilities = {
  type: 'object',
  properties: {
    tools: { type: 'object', properties: { listChanged: ListChanged } },
    resources: { type: 'object', properties: { subscribe: { type: 'boolean' }, listChanged: ListChanged } },
    prompts: { type: 'object', properties: { listChanged: ListChanged } },
    completions: SettingsObject,
    logging: SettingsObject,
    experimental: SettingsByKey,
    extensions: SettingsByKey,
  },
} as const;
