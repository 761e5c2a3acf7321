import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { PROPERTY_DEFECTS } from './property.js';
import { showsEachDeviation, callResult, lastPageNames } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'rare-internal-error': (ctx) => {
    expect(lastPageNames(ctx)).toContain('format_label');
    expect(callResult(ctx, 'format_label', { style: 'code', text: '' }).error).toMatchObject({ code: -32603 });
    expect(callResult(ctx, 'format_label', { style: 'code', text: 'x' }).result.content[0].text).toBe('`x`');
    expect(callResult(ctx, 'format_label', { style: 'bold', text: '' }).result.isError).toBeUndefined();
  },
  'lenient-missing-required': (ctx) => {
    expect(callResult(ctx, 'lookup_code', { mode: 'lenient' }).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'No code given: nothing looked up.' }],
    });
    expect(callResult(ctx, 'lookup_code', { mode: 'lenient' }).result.isError).toBeUndefined();
    expect(callResult(ctx, 'lookup_code', {}).result.isError).toBe(true);
    expect(callResult(ctx, 'lookup_code', { mode: 'strict' }).result.isError).toBe(true);
  },
  'rare-output-mismatch': (ctx) => {
    expect(callResult(ctx, 'text_stats', { text: 'a\nb', unit: 'lines' }).result.structuredContent).toEqual({
      count: '2 lines',
      unit: 'lines',
    });
    expect(callResult(ctx, 'text_stats', { text: 'a b', unit: 'words' }).result.structuredContent).toEqual({
      count: 2,
      unit: 'words',
    });
    expect(callResult(ctx, 'text_stats', { text: 'abc' }).result.structuredContent).toEqual({
      count: 3,
      unit: 'chars',
    });
  },
  'rare-integer-output-mismatch': (ctx) => {
    expect(callResult(ctx, 'offset_reading', { reading: 10, offset: -1 }).result.structuredContent).toEqual({
      value: '9.00',
    });
    expect(callResult(ctx, 'offset_reading', { reading: 10.5, offset: -1 }).result.structuredContent).toEqual({
      value: 9.5,
    });
    expect(callResult(ctx, 'offset_reading', { reading: 10, offset: 1 }).result.structuredContent).toEqual({
      value: 11,
    });
    expect(callResult(ctx, 'offset_reading', { reading: 4, offset: -1 }).result.structuredContent).toEqual({
      value: 3,
    });
  },
};

showsEachDeviation(PROPERTY_DEFECTS, DEVIATIONS);
