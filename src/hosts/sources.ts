import type { HostRule } from './types.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What a rule's record lacks: a source, or in a source an https URL, a quote, a day read. Empty when complete. */
export function sourceProblems(rule: Pick<HostRule, 'id' | 'sources'>): string[] {
  if (rule.sources.length === 0) return [`${rule.id}: no source`];
  return rule.sources.flatMap((source, i) => [
    ...(/^https:\/\/\S+$/.test(source.url ?? '') ? [] : [`${rule.id} source ${i + 1}: no https URL`]),
    ...((source.quote ?? '').trim().length >= 10 ? [] : [`${rule.id} source ${i + 1}: no quote`]),
    ...(DAY.test(source.read ?? '') && !Number.isNaN(Date.parse(source.read))
      ? []
      : [`${rule.id} source ${i + 1}: no date read`]),
  ]);
}
