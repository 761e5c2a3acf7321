import { isObject } from '../../core/jsonrpc.js';
import { mergeSchemas } from './merge-schemas.js';
import { resolveNode, type SchemaDocument } from './schema-document.js';
import { objectAt, schemaListAt, stringsAt, type SchemaObject } from './schema-node.js';

/** The top-level object constraints that apply to one valid argument object. */
export interface RootView {
  required: string[];
  declares(name: string): boolean;
  /** The declared property schema, else an object `additionalProperties`, else undefined. */
  propertySchema(name: string): unknown;
}

/** Among `oneOf`/`anyOf` branches, the first whose `required` names are all present in `valid`. */
function applicableBranch(
  node: SchemaObject,
  keyword: string,
  valid: Record<string, unknown>,
  doc: SchemaDocument,
): SchemaObject | undefined {
  for (const branch of schemaListAt(node, keyword)) {
    const resolved = resolveNode(branch, doc);
    if (!resolved.ok || !isObject(resolved.value)) continue;
    if (stringsAt(resolved.value, 'required').every((name) => Object.hasOwn(valid, name))) return resolved.value;
  }
  return undefined;
}

/** Resolves root `$ref`s and `allOf`, then folds in the `oneOf`/`anyOf` branch `valid` appears to satisfy. */
export function rootView(doc: SchemaDocument, valid: Record<string, unknown>): RootView | undefined {
  const resolved = resolveNode(doc.root, doc);
  if (!resolved.ok || !isObject(resolved.value)) return undefined;
  let node: SchemaObject = resolved.value;
  for (const keyword of ['oneOf', 'anyOf']) {
    const branch = applicableBranch(node, keyword, valid, doc);
    const merged = branch === undefined ? node : mergeSchemas(node, branch);
    if (isObject(merged)) node = merged;
  }
  const properties = objectAt(node, 'properties') ?? {};
  const rest = node['additionalProperties'];
  return {
    required: stringsAt(node, 'required'),
    declares: (name) => Object.hasOwn(properties, name),
    propertySchema: (name) => (Object.hasOwn(properties, name) ? properties[name] : isObject(rest) ? rest : undefined),
  };
}
