import { describe, expect, it } from 'vitest';
import { specUrl } from './spec-links.js';

describe('specUrl', () => {
  it('links a page anchor into the revision in use', () => {
    expect(specUrl('basic/utilities/progress#progress-flow', '2024-11-05')).toBe('https://modelcontextprotocol.io/specification/2024-11-05/basic/utilities/progress#progress-flow');
  });

  it('links a schema.json pointer to the schema reference page, under $defs and under the older definitions alike', () => {
    expect(specUrl('schema.json#/$defs/ListToolsResult/required', '2025-11-25')).toBe('https://modelcontextprotocol.io/specification/2025-11-25/schema#listtoolsresult');
    expect(specUrl('schema.json#/definitions/ListToolsResult/required', '2025-03-26')).toBe('https://modelcontextprotocol.io/specification/2025-03-26/schema#listtoolsresult');
  });
});
