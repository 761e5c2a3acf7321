import { describe, expect, it } from 'vitest';
import { compareLock, describeLockChange, lockFrom } from './tool-lock.js';

const tool = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object' },
  ...more,
});

describe('tool-set lock', () => {
  it('hashes each tool canonically: key order and unlocked fields (title, icons, _meta) do not matter', () => {
    const a = lockFrom(
      [tool('x', { inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, title: 'X' })],
      'now',
    );
    const b = lockFrom(
      [
        {
          inputSchema: { properties: { q: { type: 'string' } }, type: 'object' },
          description: 'x tool',
          name: 'x',
          title: 'Other',
          _meta: { k: 1 },
        },
      ],
      'now',
    );
    expect(a.tools.x!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.tools.x).toEqual(a.tools.x);
  });

  it('reports added, removed and changed tools, naming the changed fields', () => {
    const lock = lockFrom([tool('keep'), tool('gone'), tool('edit')], 'then');
    const now = [
      tool('keep'),
      tool('edit', { description: 'new words', annotations: { readOnlyHint: true } }),
      tool('fresh'),
    ];
    const comparison = compareLock(lock, now, 'tools.lock.json');
    expect(comparison).toEqual({
      file: 'tools.lock.json',
      status: 'changed',
      added: ['fresh'],
      removed: ['gone'],
      changed: [{ tool: 'edit', fields: ['description', 'annotations'] }],
    });
    expect(describeLockChange(comparison)).toBe('+fresh, -gone, ~edit (description, annotations)');
    expect(compareLock(lock, [tool('gone'), tool('edit'), tool('keep')], 'f').status).toBe('match');
  });
});
