import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import { iconScheme } from './tool-shape.js';

/** Just enough context for a check that reads the tool list. */
function listing(...srcs: string[]): CheckContext {
  const tools = srcs.map((src, i) => ({ name: `t${i}`, inputSchema: { type: 'object' }, icons: [{ src }] }));
  const page = { result: { tools }, exchange: { seq: 1 } };
  return { tools: async () => ({ pages: [page], tools, stop: { kind: 'complete' } }) } as unknown as CheckContext;
}

describe('icons.safe-scheme', () => {
  it.each(['http://example.com/i.png', 'https://example.com/i.png', 'data:image/png;base64,iVBORw0KGgo='])('accepts %s (a form basic/index gives for src)', async (src) => {
    const outcomes = await iconScheme.run(listing(src));
    expect(outcomes.map((o) => o.status)).toEqual(['pass']);
  });

  it.each(['2026-07-28', '2025-11-25'] as const)('reports a javascript: or file: src as a warning, never a failure (%s)', async (wire) => {
    const outcomes = await iconScheme.run(listing('javascript:alert(1)', 'file:///etc/icon.png'));
    expect(outcomes.map((o) => o.tool)).toEqual(['t0', 't1']);
    const results = outcomes.map((o) => toResult(iconScheme, o, 0, wire));
    expect(results.map((r) => [r.status, r.keywordText])).toEqual([
      ['warn', 'descriptive'],
      ['warn', 'descriptive'],
    ]);
    expect(results[0]!.message).toContain('neither an HTTP/HTTPS URL nor a data: URI');
  });
});
