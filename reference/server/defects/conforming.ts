import { defineDefects } from './define.js';
import type { JsonObject } from './seams/json.js';

/** The region-pattern variant's constraint: AWS-style regions (eu-central-1), so "us-west1" does not fit. */
export const REGION_PATTERN = '^[a-z]{2}-[a-z]+-[0-9]$';

/** Not defects: conforming behaviours some check once misjudged (each test shows it no longer does). */
export const CONFORMING_DEFECTS = defineDefects([
  {
    name: 'tool-lookup-before-headers',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: a tools/call of a name it does not list is answered -32602 before the headers are validated',
    transports: ['http'],
    at: {
      messageRules: (rules) => {
        rules.toolLookupBeforeHeaders = true;
      },
    },
  },
  {
    name: 'no-read-only-hints',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: no tool definition carries annotations.readOnlyHint (so by default no tool may be called)',
    at: {
      listedTools: (tools) => {
        for (const tool of tools)
          if (tool.annotations && typeof tool.annotations === 'object')
            delete (tool.annotations as JsonObject).readOnlyHint;
      },
    },
  },
  {
    name: 'region-pattern',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: search_docs lists region with pattern ^[a-z]{2}-[a-z]+-[0-9]$ and answers any other ' +
      'region with -32602 (HTTP 400)',
    at: {
      listedTools: (tools) => {
        const schema = tools.find((tool) => tool.name === 'search_docs')!.inputSchema as {
          properties: Record<string, JsonObject>;
        };
        schema.properties.region = { ...schema.properties.region, pattern: REGION_PATTERN };
      },
      refusesRegion: (region) => (new RegExp(REGION_PATTERN).test(region) ? undefined : true),
    },
  },
  {
    name: 'region-refused',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: search_docs answers -32602 (HTTP 400) for every region but eu-central-1, which its ' +
      'inputSchema does not say',
    at: { refusesRegion: (region) => (region === 'eu-central-1' ? undefined : true) },
  },
]);
