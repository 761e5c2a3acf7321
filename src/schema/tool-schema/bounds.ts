import { isObject } from '../../core/jsonrpc.js';
import { jsonScalarBytes, jsonStringBytes } from './json-size.js';
import { isSchemaValue, slotOfKeyword, slotOfMember, type Slot } from './subschema-slots.js';

export interface SchemaLimits {
  /** Deepest nesting allowed; the root is depth 1, each subschema or data container one level more. */
  maxDepth: number;
  /** Most subschemas (objects or booleans in a subschema position, the root included). */
  maxNodes: number;
  /** Largest JSON text, in UTF-8 bytes. */
  maxBytes: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { maxDepth: 64, maxNodes: 10_000, maxBytes: 1024 * 1024 };

export interface BoundsVerdict {
  ok: boolean;
  depth: number;
  nodes: number;
  exceeded?: 'depth' | 'nodes' | 'bytes';
  message?: string;
}

interface Frame {
  value: unknown;
  depth: number;
  slot: Slot;
}

interface Tally {
  depth: number;
  nodes: number;
  bytes: number;
}

type Limit = NonNullable<BoundsVerdict['exceeded']>;

function exceededLimit(tally: Tally, limits: SchemaLimits): Limit | undefined {
  if (tally.depth > limits.maxDepth) return 'depth';
  if (tally.nodes > limits.maxNodes) return 'nodes';
  if (tally.bytes > limits.maxBytes) return 'bytes';
  return undefined;
}

function describe(limit: Limit, limits: SchemaLimits): string {
  switch (limit) {
    case 'depth':
      return `schema nesting is deeper than ${limits.maxDepth} levels`;
    case 'nodes':
      return `schema has more than ${limits.maxNodes} subschemas`;
    case 'bytes':
      return `schema JSON is larger than ${limits.maxBytes} bytes`;
  }
}

function childSlot(parent: Frame, key: string, child: unknown): Slot {
  if (parent.slot === 'schema' && isObject(parent.value)) return slotOfKeyword(key, child);
  if (parent.slot === 'schema-list' || parent.slot === 'schema-map') return slotOfMember(child);
  return 'data';
}

/** Lists and maps of subschemas are wrappers: their members sit one level below the subschema holding them. */
function childDepth(parent: Frame, slot: Slot): number {
  return slot === 'schema-list' || slot === 'schema-map' ? parent.depth : parent.depth + 1;
}

function entriesOf(value: object): [string, unknown][] {
  return Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value);
}

/** Adds the bytes of `frame`'s brackets, keys and commas, counts and queues its children; false once a limit is hit. */
function visit(frame: Frame, stack: Frame[], tally: Tally, limits: SchemaLimits): boolean {
  const container = frame.value as object;
  const isArray = Array.isArray(container);
  const entries = entriesOf(container);
  tally.bytes += 2 + Math.max(0, entries.length - 1);
  for (const [key, child] of entries) {
    if (!isArray) tally.bytes += jsonStringBytes(key, limits.maxBytes) + 1;
    const slot = childSlot(frame, key, child);
    if (slot === 'schema' && isSchemaValue(child)) tally.nodes += 1;
    if (typeof child === 'object' && child !== null) {
      const depth = childDepth(frame, slot);
      tally.depth = Math.max(tally.depth, depth);
      stack.push({ value: child, depth, slot });
    } else {
      tally.bytes += jsonScalarBytes(child, limits.maxBytes);
    }
    if (exceededLimit(tally, limits)) return false;
  }
  return true;
}

/** Iterative (explicit stack) walk of the whole document; it stops as soon as one limit is exceeded. */
export function measureSchema(schema: unknown, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): BoundsVerdict {
  const tally: Tally = { depth: 1, nodes: isSchemaValue(schema) ? 1 : 0, bytes: 0 };
  const stack: Frame[] = [];
  if (typeof schema === 'object' && schema !== null) stack.push({ value: schema, depth: 1, slot: 'schema' });
  else tally.bytes += jsonScalarBytes(schema, limits.maxBytes);
  let within = exceededLimit(tally, limits) === undefined;
  while (within && stack.length > 0) within = visit(stack.pop()!, stack, tally, limits);
  const exceeded = exceededLimit(tally, limits);
  const verdict: BoundsVerdict = { ok: exceeded === undefined, depth: tally.depth, nodes: tally.nodes };
  if (exceeded !== undefined) {
    verdict.exceeded = exceeded;
    verdict.message = describe(exceeded, limits);
  }
  return verdict;
}
