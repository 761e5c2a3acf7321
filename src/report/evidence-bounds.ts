import type { Evidence, EvidenceNote } from '../model/check.js';

export interface EvidenceLimits {
  /** Longest string kept anywhere inside evidence (UTF-16 code units). */
  maxStringLength: number;
  /** Evidence items kept per check; the rest is replaced by one note. */
  maxItems: number;
  /** Longest array kept anywhere inside an evidence item. */
  maxArrayLength: number;
  /** Deepest nesting kept; deeper values become a marker string. */
  maxDepth: number;
}

export const DEFAULT_EVIDENCE_LIMITS: EvidenceLimits = {
  maxStringLength: 64 * 1024,
  maxItems: 20,
  maxArrayLength: 1000,
  maxDepth: 64,
};

export function truncationMarker(dropped: number, unit: 'chars' | 'items'): string {
  return `…[truncated ${dropped} ${unit}]`;
}

/** Keeps the first `max` code units (never splitting a surrogate pair) and appends a marker. */
export function truncateString(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + truncationMarker(text.length - end, 'chars');
}

/**
 * A JSON-ready copy of `value` with long strings and arrays cut, cycles and over-deep
 * nesting replaced by markers, and non-JSON scalars (bigint, symbol, function) stringified.
 */
export function boundValue(value: unknown, limits: EvidenceLimits): unknown {
  return boundAt(value, limits, 0, new Set<object>());
}

function boundAt(value: unknown, limits: EvidenceLimits, depth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return truncateString(value, limits.maxStringLength);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'symbol' || typeof value === 'function') return String(value);
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return '…[circular]';
  if (depth >= limits.maxDepth) return '…[nested too deep]';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const kept = value.slice(0, limits.maxArrayLength).map((item) => boundAt(item, limits, depth + 1, ancestors));
      if (value.length > limits.maxArrayLength) {
        kept.push(truncationMarker(value.length - limits.maxArrayLength, 'items'));
      }
      return kept;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = boundAt(item, limits, depth + 1, ancestors);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * Bounds one check's evidence for a report: every item is bounded with {@link boundValue},
 * and items beyond `maxItems` are replaced by a note saying how many were dropped.
 */
export function boundEvidence(evidence: readonly Evidence[], limits: Partial<EvidenceLimits> = {}): Evidence[] {
  const effective: EvidenceLimits = { ...DEFAULT_EVIDENCE_LIMITS, ...limits };
  const kept = evidence.slice(0, effective.maxItems).map((item) => boundValue(item, effective) as Evidence);
  const dropped = evidence.length - kept.length;
  if (dropped > 0) {
    const note: EvidenceNote = {
      note: `${dropped} more evidence item(s) dropped (limit ${effective.maxItems} per check)`,
      data: { dropped },
    };
    kept.push(note);
  }
  return kept;
}
