import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { effectFile, keepNotesFile } from './effect-files.js';
import type { HandlerContext } from '../reply.js';
import { rpc } from '../test-support.js';
import { EFFECTS_DEFECTS } from './effects.js';
import { showsEachDeviation, exchange, callResult, inScratch, annotationsOf, lineCount } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'read-only-writes': (ctx) =>
    inScratch(() => {
      expect(annotationsOf(ctx, 'search_docs').readOnlyHint).toBe(true);
      expect(callResult(ctx, 'search_docs', { query: 'auth' }).result.isError).toBeUndefined();
      callResult(ctx, 'search_docs', { query: 'limits' });
      expect(readFileSync(effectFile('searchHistory'), 'utf8')).toMatch(/"auth"\n.*"limits"\n$/);
    }),
  'non-destructive-deletes': (ctx) =>
    inScratch(() => {
      expect(annotationsOf(ctx, 'create_note')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      keepNotesFile(ctx.defects);
      expect(readFileSync(effectFile('notes'), 'utf8')).toBe('[]\n');
      expect(callResult(ctx, 'create_note', { title: 'groceries' }).result.isError).toBeUndefined();
      expect(existsSync(effectFile('notes'))).toBe(false);
    }),
  'idempotent-appends': (ctx) =>
    inScratch(() => {
      expect(annotationsOf(ctx, 'delete_note')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
      for (const id of [1, 2]) {
        expect(
          exchange(ctx, rpc(id, 'tools/call', { name: 'delete_note', arguments: { id: 'x' } })).at(-1)!.result.isError,
        ).toBeUndefined();
      }
      expect(lineCount(effectFile('deletions'))).toBe(2);
    }),
};

showsEachDeviation(EFFECTS_DEFECTS, DEVIATIONS);
