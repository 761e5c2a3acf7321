import { isObject } from '../core/jsonrpc.js';
import { countAt, declaredTypes, documentOf, numberAt, resolveNode, rootView } from '../schema/arguments/index.js';

/** What the schema says about one top-level value, where cheaply known: allowed values, bounds, sizes. */
export interface ValueHints {
  enum?: readonly unknown[];
  /** `minimum`, else `exclusiveMinimum` (a value at an exclusive bound is refused by the validator, never sent). */
  lowerBound?: number;
  upperBound?: number;
  integer?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export type HintsFor = (name: string) => ValueHints;

function hintsOfNode(node: Record<string, unknown>): ValueHints {
  const hints: ValueHints = {};
  if (Array.isArray(node['enum'])) hints.enum = node['enum'];
  const lower = numberAt(node, 'minimum') ?? numberAt(node, 'exclusiveMinimum');
  if (lower !== undefined) hints.lowerBound = lower;
  const upper = numberAt(node, 'maximum') ?? numberAt(node, 'exclusiveMaximum');
  if (upper !== undefined) hints.upperBound = upper;
  if (declaredTypes(node)?.includes('integer')) hints.integer = true;
  for (const keyword of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    const count = countAt(node, keyword);
    if (count !== undefined) hints[keyword] = count;
  }
  return hints;
}

/** The hints of each top-level property of `schema`, in the branch a valid `sample` appears to satisfy. */
export function hintsOf(schema: Record<string, unknown>, sample: Record<string, unknown>): HintsFor {
  const doc = documentOf(schema);
  const view = rootView(doc, sample);
  const cache = new Map<string, ValueHints>();
  return (name) => {
    let hints = cache.get(name);
    if (hints) return hints;
    const resolved = view ? resolveNode(view.propertySchema(name) ?? true, doc) : undefined;
    hints = resolved?.ok && isObject(resolved.value) ? hintsOfNode(resolved.value) : {};
    cache.set(name, hints);
    return hints;
  };
}
