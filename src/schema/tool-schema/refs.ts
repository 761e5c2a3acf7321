import { isObject } from '../../core/jsonrpc.js';
import { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './bounds.js';
import { dialectOf } from './dialect.js';
import { DOCUMENT_PROTOCOL, resolveUri, splitFragment } from './document-base.js';
import { evaluatePointer } from './json-pointer.js';
import { indexSchema, type RefKeyword, type RefSite, type SchemaIndex } from './schema-index.js';
import { shorten } from './shorten.js';
import { isSchemaValue, slotOfKeyword, slotOfMember, type Slot } from './subschema-slots.js';

export type RefKind = 'local-pointer' | 'anchor' | 'network' | 'file' | 'relative' | 'other';

export interface RefInfo {
  /** JSON pointer of the subschema holding the reference. */
  at: string;
  ref: string;
  keyword: RefKeyword;
  kind: RefKind;
  resolved: boolean;
  reason?: string;
}

type Resolution = Pick<RefInfo, 'kind' | 'resolved' | 'reason'>;

const NETWORK_PROTOCOLS: ReadonlySet<string> = new Set([
  'http:',
  'https:',
  'ws:',
  'wss:',
  'ftp:',
  'ftps:',
  'sftp:',
  'gopher:',
]);

function unresolved(kind: RefKind, reason: string): Resolution {
  return { kind, resolved: false, reason };
}

function percentDecode(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** The slot of the pointer's target. Containers under unknown keywords count as data, which may hold schemas. */
function targetSlot(tokens: readonly string[], path: readonly unknown[]): Slot {
  let slot: Slot = 'schema';
  tokens.forEach((token, i) => {
    const child = path[i + 1];
    if (slot === 'schema') slot = isObject(path[i]) ? slotOfKeyword(token, child) : 'data';
    else if (slot === 'schema-list' || slot === 'schema-map') slot = slotOfMember(child);
  });
  return slot;
}

function resolvePointer(resourceRoot: unknown, pointer: string): Resolution {
  const lookup = evaluatePointer(resourceRoot, pointer);
  if (!lookup.ok) return unresolved('local-pointer', lookup.reason);
  const target = lookup.path[lookup.path.length - 1];
  const slot = targetSlot(lookup.tokens, lookup.path);
  if (!isSchemaValue(target) || slot === 'schema-list' || slot === 'schema-map') {
    return unresolved('local-pointer', `the target at ${shorten(pointer)} is not a schema`);
  }
  return { kind: 'local-pointer', resolved: true };
}

function resolveFragment(index: SchemaIndex, base: string, resourceRoot: unknown, fragment: string): Resolution {
  const decoded = percentDecode(fragment);
  const isPointer = fragment === '' || fragment.startsWith('/');
  if (decoded === undefined)
    return unresolved(isPointer ? 'local-pointer' : 'anchor', 'malformed percent-encoding in the fragment');
  if (isPointer) return resolvePointer(resourceRoot, decoded);
  if (index.anchors.has(`${base}#${decoded}`)) return { kind: 'anchor', resolved: true };
  return unresolved(
    'anchor',
    `no $anchor, $dynamicAnchor or fragment $id named "${shorten(decoded)}" in this document`,
  );
}

/** A reference leaving the document: classified by where it would lead, never followed. */
function classifyExternal(target: string): Resolution {
  const url = new URL(target);
  const shown = shorten(target);
  if (url.protocol === DOCUMENT_PROTOCOL) {
    return unresolved(
      'relative',
      'relative reference resolves to another document (no embedded $id matches it); it is never read',
    );
  }
  if (url.protocol === 'file:') return unresolved('file', `file URI ${shown} is never read`);
  if (NETWORK_PROTOCOLS.has(url.protocol) || url.host !== '') {
    return unresolved('network', `network URI ${shown} is not part of this document and is never fetched`);
  }
  return unresolved('other', `${url.protocol} URI ${shown} is not part of this document and is never dereferenced`);
}

function resolveRef(index: SchemaIndex, site: RefSite, ref: string): Resolution {
  const { uri, fragment } = splitFragment(ref);
  const target = resolveUri(uri, site.base);
  if (target === undefined) return unresolved('other', 'not a valid URI reference');
  if (!index.resources.has(target)) return classifyExternal(target);
  return resolveFragment(index, target, index.resources.get(target), fragment);
}

function describeValue(value: unknown): string {
  if (value === null) return '<null>';
  return Array.isArray(value) ? '<array>' : `<${typeof value}>`;
}

/**
 * Every `$ref`, `$dynamicRef` and `$recursiveRef` in the schema's subschemas (up to the limits' depth and
 * subschema count), each resolved statically against this one document. Nothing is ever read or fetched.
 */
export function analyzeRefs(schema: unknown, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): RefInfo[] {
  const idKeyword = dialectOf(schema).dialect === 'draft-04' ? 'id' : '$id';
  const index = indexSchema(schema, limits, idKeyword);
  return index.refs.map((site): RefInfo => {
    if (typeof site.value !== 'string') {
      return {
        at: site.at,
        ref: describeValue(site.value),
        keyword: site.keyword,
        kind: 'other',
        resolved: false,
        reason: `${site.keyword} must be a string`,
      };
    }
    return { at: site.at, ref: site.value, keyword: site.keyword, ...resolveRef(index, site, site.value) };
  });
}
