import { REGION_PATTERN } from '../tool-defects.js';
import { defineDefects } from './define.js';

/** Not defects: conforming behaviours some check once misjudged (each test shows it no longer does). */
export const CONFORMING_DEFECTS = defineDefects([
  {
    name: 'tool-lookup-before-headers',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: a tools/call of a name it does not list is answered -32602 before the headers are validated',
    transports: ['http'],
  },
  {
    name: 'no-read-only-hints',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: no tool definition carries annotations.readOnlyHint (so by default no tool may be called)',
  },
  {
    name: 'region-pattern',
    breaks: null,
    conforming: true,
    description:
      'conforming variant: search_docs lists region with pattern ^[a-z]{2}-[a-z]+-[0-9]$ and answers any other ' +
      'region with -32602 (HTTP 400)',
    at: { refusesRegion: (region) => (new RegExp(REGION_PATTERN).test(region) ? undefined : true) },
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
