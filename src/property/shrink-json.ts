import { isObject } from '../jsonrpc.js';

/** What the schema says about one value, where cheaply known: its allowed values and its numeric lower bound. */
export interface ValueHints {
  enum?: readonly unknown[];
  lowerBound?: number;
}

const MAX_ELEMENTS_TRIED = 8;

function* shrinkString(text: string): Generator<string> {
  const points = [...text];
  if (points.length === 0) return;
  yield '';
  if (points.length > 2) yield points.slice(0, Math.floor(points.length / 2)).join('');
  yield points.slice(0, -1).join('');
}

function* shrinkNumber(value: number, lowerBound: number | undefined): Generator<number> {
  const target = lowerBound !== undefined && Number.isFinite(lowerBound) && lowerBound <= value ? lowerBound : 0;
  if (value === target) return;
  yield target;
  const integral = Number.isInteger(value) && Number.isInteger(target);
  const middle = integral ? target + Math.trunc((value - target) / 2) : (value + target) / 2;
  if (middle !== target && middle !== value) yield middle;
  if (integral) yield value - Math.sign(value - target);
  else if (Math.trunc(value) !== value) yield Math.trunc(value);
}

function* shrinkArray(items: readonly unknown[]): Generator<unknown[]> {
  if (items.length === 0) return;
  yield [];
  if (items.length > 2) yield items.slice(0, Math.floor(items.length / 2));
  for (let i = items.length - 1; i >= 0 && i >= items.length - MAX_ELEMENTS_TRIED; i -= 1) yield [...items.slice(0, i), ...items.slice(i + 1)];
  for (let i = 0; i < Math.min(items.length, MAX_ELEMENTS_TRIED); i += 1) {
    for (const smaller of shrinkValue(items[i])) yield items.map((item, j) => (j === i ? smaller : item));
  }
}

/**
 * Smaller neighbours of an object: each property dropped, then each property's value made smaller. `hintsFor` gives the
 * schema's hints for a top-level property. The candidates are not checked here: the caller keeps those the schema accepts.
 */
export function* shrinkObject(value: Record<string, unknown>, hintsFor: (name: string) => ValueHints = () => ({})): Generator<Record<string, unknown>> {
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
