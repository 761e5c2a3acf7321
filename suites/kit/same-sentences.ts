import type { SpecSentence, SpecSentences } from '../../src/model/check.js';

/** For a requirement whose sentences read the same in 2026-07-28 and 2025-11-25 (same page, same heading). */
export const onBothWires = (...sentences: SpecSentence[]): SpecSentences => ({ '2026-07-28': sentences, '2025-11-25': sentences });
