import { isObject } from '../core/jsonrpc.js';
import type { ValueHints } from './value-hints.js';

const MAX_ELEMENTS_TRIED = 8;

function* shrinkString(text: string): Generator<string> {
  const points = [...text];
  if (points.length === 0) return;
  yield '';
  if (points.length > 2) yield points.slice(0, Math.floor(points.length / 2)).join('');
  yield points.slice(0, -1).join('');
}

/** Small integers tried, nearest the target first, before an integer loses digits. */
const SMALL_STEPS = 9;

function significantDigits(value: number): number {
  return value.toExponential().split('e')[0]!.replace(/[-.]/g, '').length;
}

/**
 * Simpler neighbours of a number, simplest first: the target (the lower bound, else 0), then for a decimal its integer
 * part and the same value with fewer significant digits, and for an integer the small integers next to the target, its
 * positive counterpart, and its leading digits (1789 → 1000, 1700, 1780). Every candidate is an integer nearer the
 * target or a number with fewer significant digits, so shrinking ends in a few steps, never by halving.
 */
function* shrinkNumber(value: number, lowerBound: number | undefined): Generator<number> {
  if (!Number.isFinite(value)) return;
  const target = lowerBound !== undefined && Number.isFinite(lowerBound) && lowerBound <= value ? lowerBound : 0;
  if (value === target) return;
  yield target;
  if (!Number.isInteger(value)) {
    yield Math.trunc(value) + 0;
    if (Math.abs(value) < 1) yield Math.sign(value);
    for (let digits = 1; digits < Math.min(significantDigits(value), 16); digits += 1)
      yield Number(value.toPrecision(digits));
    return;
  }
  if (target === 0 && value < 0) yield -value;
  const direction = Math.sign(value - target);
  for (let step = 1; step <= SMALL_STEPS && step < Math.abs(value - target); step += 1) yield target + step * direction;
  const distance = Math.abs(value - target);
  for (let scale = 10 ** Math.floor(Math.log10(distance)); scale >= 10; scale /= 10) {
    const rounded = target + direction * Math.floor(distance / scale) * scale;
    if (rounded !== value) yield rounded;
  }
  if (value - direction !== value) yield value - direction;
}

function* shrinkArray(items: readonly unknown[]): Generator<unknown[]> {
  if (items.length === 0) return;
  yield [];
  if (items.length > 2) yield items.slice(0, Math.floor(items.length / 2));
  for (let i = items.length - 1; i >= 0 && i >= items.length - MAX_ELEMENTS_TRIED; i -= 1)
    yield [...items.slice(0, i), ...items.slice(i + 1)];
  for (let i = 0; i < Math.min(items.length, MAX_ELEMENTS_TRIED); i += 1) {
    for (const smaller of shrinkValue(items[i])) yield items.map((item, j) => (j === i ? smaller : item));
  }
}

/**
 * Smaller neighbours of an object: each property dropped, then each property's value made smaller. `hintsFor` gives the
 * schema's hints for a top-level property. The candidates are not checked here: the caller keeps those the schema
 * accepts.
 */
export function* shrinkObject(
  value: Record<string, unknown>,
  hintsFor: (name: string) => ValueHints = () => ({}),
): Generator<Record<string, unknown>> {
  const names = Object.keys(value);
  for (const name of names) {
    const copy = { ...value };
    delete copy[name];
    yield copy;
  }
  for (const name of names) {
    for (const smaller of shrinkValue(value[name], hintsFor(name))) yield { ...value, [name]: smaller };
  }
}

/** Smaller neighbours of one JSON value, most aggressive first. */
export function* shrinkValue(value: unknown, hints: ValueHints = {}): Generator<unknown> {
  if (hints.enum) {
    const at = hints.enum.findIndex((allowed) => JSON.stringify(allowed) === JSON.stringify(value));
    for (let i = 0; i < at; i += 1) yield hints.enum[i];
  }
  if (typeof value === 'string') yield* shrinkString(value);
  else if (typeof value === 'number') yield* shrinkNumber(value, hints.lowerBound);
  else if (value === true) yield false;
  else if (Array.isArray(value)) yield* shrinkArray(value);
  else if (isObject(value)) yield* shrinkObject(value);
}
