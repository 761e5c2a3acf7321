import { isObject } from '../../core/jsonrpc.js';
import { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './bounds.js';
import { DOCUMENT_BASE, resolveUri, splitFragment } from './document-base.js';
import { escapePointerToken } from './json-pointer.js';
import { slotOfKeyword, slotOfMember, type Slot } from './subschema-slots.js';

export type RefKeyword = '$ref' | '$dynamicRef' | '$recursiveRef';

export interface RefSite {
  at: string;
  keyword: RefKeyword;
  value: unknown;
  base: string;
}

/** Everything `$ref` resolution needs from one document: its resources' roots (by base URI), anchors and references. */
export interface SchemaIndex {
  resources: Map<string, unknown>;
  /** `<resource base>#<anchor name>` of every anchor. */
  anchors: Set<string>;
  refs: RefSite[];
}

const REF_KEYWORDS: readonly RefKeyword[] = ['$ref', '$dynamicRef', '$recursiveRef'];

interface Frame {
  value: unknown;
  pointer: string;
  depth: number;
  slot: Slot;
  base: string;
}

function register(index: SchemaIndex, base: string, root: unknown): void {
  if (!index.resources.has(base)) index.resources.set(base, root);
}

/** Applies `$id` (and draft-04 `id`): a new base, and for draft-06/07 `$id: "#name"` or `"uri#name"` an anchor. */
function enterResource(schema: Record<string, unknown>, frame: Frame, index: SchemaIndex, idKeyword: string): string {
  const id = schema[idKeyword];
  if (typeof id !== 'string') return frame.base;
  const { uri, fragment } = splitFragment(id);
  const base = uri === '' ? frame.base : (resolveUri(uri, frame.base) ?? frame.base);
  if (base !== frame.base) register(index, base, schema);
  if (fragment !== '') index.anchors.add(`${base}#${fragment}`);
  return base;
}

function indexSchemaObject(
  schema: Record<string, unknown>,
  frame: Frame,
  index: SchemaIndex,
  idKeyword: string,
): string {
  const base = enterResource(schema, frame, index, idKeyword);
  for (const keyword of ['$anchor', '$dynamicAnchor']) {
    const name = schema[keyword];
    if (typeof name === 'string') index.anchors.add(`${base}#${name}`);
  }
  for (const keyword of REF_KEYWORDS) {
    if (Object.hasOwn(schema, keyword)) index.refs.push({ at: frame.pointer, keyword, value: schema[keyword], base });
  }
  return base;
}

function entriesOf(frame: Frame): [string, unknown][] {
  if (frame.slot === 'schema-list' && Array.isArray(frame.value))
    return frame.value.map((item, i) => [String(i), item]);
  return isObject(frame.value) ? Object.entries(frame.value) : [];
}

function childFrame(frame: Frame, key: string, child: unknown, base: string): Frame | undefined {
  const slot = frame.slot === 'schema' ? slotOfKeyword(key, child) : slotOfMember(child);
  if (slot === 'data') return undefined;
  const depth = slot === 'schema' ? frame.depth + 1 : frame.depth;
  return { value: child, pointer: `${frame.pointer}/${escapePointerToken(key)}`, depth, slot, base };
}

/**
 * Iterative walk of the subschema positions only (never `const`, `enum` or vendor data), in document order.
 * It skips whatever lies deeper than `limits.maxDepth` and stops after `limits.maxNodes` subschemas.
 */
export function indexSchema(
  schema: unknown,
  limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS,
  idKeyword = '$id',
): SchemaIndex {
  const index: SchemaIndex = { resources: new Map(), anchors: new Set(), refs: [] };
  register(index, DOCUMENT_BASE, schema);
  const stack: Frame[] = [{ value: schema, pointer: '', depth: 1, slot: 'schema', base: DOCUMENT_BASE }];
  let nodes = 0;
  while (stack.length > 0) {
    const frame = stack.pop()!;
    let base = frame.base;
    if (frame.slot === 'schema') {
      if (++nodes > limits.maxNodes) break;
      if (isObject(frame.value)) base = indexSchemaObject(frame.value, frame, index, idKeyword);
    }
    const entries = entriesOf(frame);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      const next = childFrame(frame, key, child, base);
      if (next !== undefined && next.depth <= limits.maxDepth) stack.push(next);
    }
  }
  return index;
}
