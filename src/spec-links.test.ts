import { describe, expect, it } from 'vitest';
import { specUrl } from './spec-links.js';

describe('specUrl', () => {
  it('links a page of the revision in use, or the current revision when none was agreed', () => {
    expect(specUrl('server/tools#tool', '2024-11-05')).toBe(
      'https://modelcontextprotocol.io/specification/2024-11-05/server/tools#tool',
    );
    expect(specUrl('server/tools#tool', null)).toBe(
      'https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool',
    );
  });

  it('links a schema.json pointer to the schema page of its revision, or to the file where the site has no such page', () => {
    expect(specUrl('schema.json#/$defs/Tool/required', '2025-11-25')).toBe(
      'https://modelcontextprotocol.io/specification/2025-11-25/schema#tool',
    );
    expect(specUrl('schema.json#/definitions/Tool/required', '2025-06-18')).toBe(
      'https://modelcontextprotocol.io/specification/2025-06-18/schema#tool',
    );
    expect(specUrl('schema.json#/definitions/Tool/required', '2025-03-26')).toBe(
      'https://github.com/modelcontextprotocol/specification/blob/main/schema/2025-03-26/schema.json',
    );
  });
});
