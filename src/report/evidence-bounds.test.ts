import { describe, expect, it } from 'vitest';
import type { Evidence } from '../model/check.js';
import { boundEvidence, boundValue, DEFAULT_EVIDENCE_LIMITS, truncateString } from './evidence-bounds.js';
import { LIST_EXCHANGE } from './run-report.fixture.js';

describe('truncateString', () => {
  it('keeps short strings and cuts long ones with a marker naming the dropped count', () => {
    expect(truncateString('abc', 3)).toBe('abc');
    expect(truncateString('abcdef', 4)).toBe('abcd…[truncated 2 chars]');
  });

  it('never splits a surrogate pair', () => {
    const cut = truncateString('ab🎉cd', 3);
    expect(cut).toBe('ab…[truncated 4 chars]');
    expect(cut.isWellFormed()).toBe(true);
  });
});

describe('boundEvidence', () => {
  it('returns small evidence unchanged (deeply equal, not the same objects)', () => {
    const evidence: Evidence[] = [LIST_EXCHANGE, { note: 'n', data: [1, 'two', null] }];
    const bounded = boundEvidence(evidence);
    expect(bounded).toEqual(evidence);
    expect(bounded[0]).not.toBe(evidence[0]);
  });

  it('truncates any string above 64 KiB, however deep, with the marker', () => {
    const huge = 'x'.repeat(200_000);
    const evidence: Evidence[] = [
      { ...LIST_EXCHANGE, rawBody: huge, response: { result: { deep: [{ text: huge }] } } },
    ];
    const [item] = boundEvidence(evidence) as [{ rawBody: string; response: { result: { deep: { text: string }[] } } }];
    const expected = `${'x'.repeat(64 * 1024)}…[truncated ${200_000 - 64 * 1024} chars]`;
    expect(item.rawBody).toBe(expected);
    expect(item.response.result.deep[0]?.text).toBe(expected);
    expect((evidence[0] as { rawBody: string }).rawBody).toHaveLength(200_000);
  });

  it('caps the item count and appends a note saying how many were dropped', () => {
    const evidence: Evidence[] = Array.from({ length: 27 }, (_, i) => ({ note: `item ${i}` }));
    const bounded = boundEvidence(evidence);
    expect(bounded).toHaveLength(DEFAULT_EVIDENCE_LIMITS.maxItems + 1);
    expect(bounded[19]).toEqual({ note: 'item 19' });
    expect(bounded[20]).toMatchObject({ data: { dropped: 7 } });
    expect((bounded[20] as { note: string }).note).toMatch(/7 more evidence item/);
  });

  it('honours custom limits', () => {
    const bounded = boundEvidence([{ note: 'abcdefgh' }, { note: 'b' }], { maxStringLength: 2, maxItems: 1 });
    expect(bounded).toEqual([{ note: 'ab…[truncated 6 chars]' }, expect.objectContaining({ data: { dropped: 1 } })]);
  });
});

describe('boundValue', () => {
  const limits = { ...DEFAULT_EVIDENCE_LIMITS, maxArrayLength: 3, maxDepth: 4 };

  it('cuts long arrays with an item marker', () => {
    expect(boundValue([1, 2, 3, 4, 5], limits)).toEqual([1, 2, 3, '…[truncated 2 items]']);
  });

  it('replaces cycles and over-deep nesting with markers, and stringifies bigint', () => {
    const cyclic: Record<string, unknown> = { n: 10n };
    cyclic.self = cyclic;
    expect(boundValue(cyclic, limits)).toEqual({ n: '10', self: '…[circular]' });
    expect(boundValue({ a: { b: { c: { d: { e: 1 } } } } }, limits)).toEqual({
      a: { b: { c: { d: '…[nested too deep]' } } },
    });
  });

  it('keeps a shared (non-cyclic) object twice', () => {
    const shared = { x: 1 };
    expect(boundValue([shared, shared], limits)).toEqual([{ x: 1 }, { x: 1 }]);
  });
});
