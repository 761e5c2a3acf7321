import { isObject } from '../core/jsonrpc.js';
import type { HintsFor, ValueHints } from './value-hints.js';

/** A uniform draw in [0, count): the caller's seeded random source, so every biased value replays from the seed. */
export type Pick = (count: number) => number;

/** Small integers drawn for numbers: [-SMALL, SMALL]. */
const SMALL = 10;
/** Longest string or array built up to a `maxLength` / `maxItems` boundary. */
const MAX_BOUNDARY_SIZE = 256;
/** Strings with characters that parsers, encoders and shells get wrong. */
const UNUSUAL_STRINGS = [' ', 'é', '😀', '\u0000', '\n', 'a"b\\c', "'", '<&>', '%s', '0', 'null', '\u202e'];

function pickOf<T>(choices: readonly T[], pick: Pick): T {
  return choices[pick(choices.length)]!;
}

/**
 * Mostly small integers (0, ±1 among them), else a bound or its neighbour, a quarter step, or the drawn value's integer
 * part.
 */
function edgeNumber(value: number, hints: ValueHints, pick: Pick): number {
  const bounds: number[] = [];
  if (hints.lowerBound !== undefined) bounds.push(hints.lowerBound, hints.lowerBound + 1);
  if (hints.upperBound !== undefined) bounds.push(hints.upperBound, hints.upperBound - 1);
  const roll = pick(8);
  if (roll < 2 && bounds.length > 0) return pickOf(bounds, pick);
  if (roll === 7) return Math.trunc(value) + 0;
  if (roll === 6 && !hints.integer) return (pick(8 * SMALL + 1) - 4 * SMALL) / 4;
  return pick(2 * SMALL + 1) - SMALL;
}

function edgeString(value: string, hints: ValueHints, pick: Pick): string {
  const points = [...value];
  const choices: (() => string)[] = [() => '', () => pickOf(UNUSUAL_STRINGS, pick), () => points.slice(0, 1).join('')];
  if (hints.minLength !== undefined)
    choices.push(() => points.slice(0, hints.minLength).join('').padEnd(hints.minLength!, 'a'));
  if (hints.maxLength !== undefined && hints.maxLength <= MAX_BOUNDARY_SIZE)
    choices.push(() => value.padEnd(hints.maxLength!, 'z').slice(0, hints.maxLength));
  return pickOf(choices, pick)();
}

function edgeArray(items: readonly unknown[], hints: ValueHints, pick: Pick): unknown[] {
  const choices: (() => unknown[])[] = [() => [], () => items.slice(0, 1)];
  if (hints.minItems !== undefined) choices.push(() => items.slice(0, hints.minItems));
  if (hints.maxItems !== undefined && hints.maxItems <= MAX_BOUNDARY_SIZE && items.length > 0) {
    choices.push(() => Array.from({ length: hints.maxItems! }, (_, i) => structuredClone(items[i % items.length])));
  }
  return pickOf(choices, pick)();
}

/** An edge value of the same JSON type as `value` (an object gets its properties biased in turn). */
function edgeValue(value: unknown, hints: ValueHints, pick: Pick): unknown {
  if (hints.enum) return value;
  if (typeof value === 'number') return edgeNumber(value, hints, pick);
  if (typeof value === 'string') return edgeString(value, hints, pick);
  if (Array.isArray(value)) return edgeArray(value, hints, pick);
  if (isObject(value)) return biasedProperties(value, () => ({}), pick);
  return value;
}

function biasedProperties(value: Record<string, unknown>, hintsFor: HintsFor, pick: Pick): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value))
    out[name] = pick(2) === 0 ? edgeValue(item, hintsFor(name), pick) : item;
  return out;
}

/**
 * Biases a valid generated object toward the edges where bugs gather: each property, with even odds, becomes an edge
 * value of its type (numbers mostly small integers, 0 and ±1, or a bound; strings empty, one character, unusual
 * characters or a length boundary; arrays empty, one element or a size boundary). When the whole biased object is
 * invalid, each biased property is kept only if the object stays valid with it alone.
 */
export function biasTowardEdges(
  value: Record<string, unknown>,
  hintsFor: HintsFor,
  isValid: (candidate: unknown) => boolean,
  pick: Pick,
): Record<string, unknown> {
  const biased = biasedProperties(value, hintsFor, pick);
  if (isValid(biased)) return biased;
  let kept = value;
  for (const [name, item] of Object.entries(biased)) {
    if (item === value[name]) continue;
    const candidate = { ...kept, [name]: item };
    if (isValid(candidate)) kept = candidate;
  }
  return kept;
}
