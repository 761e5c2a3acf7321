import { isObject } from '../../core/jsonrpc.js';
import { dialectOf } from '../tool-schema/index.js';
import { evaluatePointer } from '../tool-schema/json-pointer.js';
import { shorten } from '../tool-schema/shorten.js';
import { mergeSchemas } from './merge-schemas.js';
import { failure, schemaListAt, without, type Outcome, type SchemaNode, type SchemaObject } from './schema-node.js';

/** Shared work allowance of one sampling or mutation run over an untrusted schema. */
export class Budget {
  constructor(private steps: number) {}

  spend(): boolean {
    this.steps -= 1;
    return this.steps >= 0;
  }
}

export const TOO_COMPLEX = 'schema is too complex to sample (work budget exhausted)';

export interface SchemaDocument {
  root: SchemaObject;
  /** Before 2019-09, keywords next to `$ref` are ignored. */
  refSiblingsIgnored: boolean;
  budget: Budget;
}

export function documentOf(root: SchemaObject, budgetSteps = 20_000): SchemaDocument {
  const dialect = dialectOf(root).dialect;
  return {
    root,
    refSiblingsIgnored: dialect === 'draft-07' || dialect === 'draft-06',
    budget: new Budget(budgetSteps),
  };
}

function percentDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Only same-document JSON pointers (`#`, `#/$defs/x`, `#/definitions/x`, …) are followed. */
function refTarget(doc: SchemaDocument, ref: unknown): Outcome<unknown> {
  const shown = shorten(String(ref), 80);
  if (typeof ref !== 'string' || !ref.startsWith('#'))
    return failure(`cannot follow $ref ${shown} (only same-document "#/…" pointers are followed)`);
  const pointer = percentDecode(ref.slice(1));
  if (pointer === undefined) return failure(`cannot follow $ref ${shown}: malformed percent-encoding`);
  const lookup = evaluatePointer(doc.root, pointer);
  if (!lookup.ok) return failure(`cannot follow $ref ${shown}: ${lookup.reason}`);
  return { ok: true, value: lookup.path[lookup.path.length - 1] };
}

/** Follows a chain of `$ref`s (merging sibling keywords where the dialect honours them). */
export function followRefs(schema: unknown, doc: SchemaDocument): Outcome<SchemaNode> {
  let current = schema;
  for (;;) {
    if (typeof current === 'boolean') return { ok: true, value: current };
    if (!isObject(current)) return failure('a subschema is neither an object nor a boolean');
    for (const keyword of ['$dynamicRef', '$recursiveRef']) {
      if (Object.hasOwn(current, keyword))
        return failure(`cannot follow ${keyword} ${shorten(String(current[keyword]), 80)}`);
    }
    if (!Object.hasOwn(current, '$ref')) return { ok: true, value: current };
    if (!doc.budget.spend()) return failure(TOO_COMPLEX);
    const target = refTarget(doc, current['$ref']);
    if (!target.ok) return target;
    const siblings = without(current, '$ref');
    if (doc.refSiblingsIgnored) current = target.value;
    else if (target.value === true) current = siblings;
    else current = isObject(target.value) ? mergeSchemas(target.value, siblings) : target.value;
  }
}

/** Follows `$ref`s and folds `allOf` into its parent, repeatedly, until neither is left at the top. */
export function resolveNode(schema: unknown, doc: SchemaDocument): Outcome<SchemaNode> {
  let current = followRefs(schema, doc);
  while (current.ok && typeof current.value !== 'boolean' && schemaListAt(current.value, 'allOf').length > 0) {
    let merged: SchemaNode = without(current.value, 'allOf');
    for (const branch of schemaListAt(current.value, 'allOf')) {
      if (!doc.budget.spend()) return failure(TOO_COMPLEX);
      const resolved = followRefs(branch, doc);
      if (!resolved.ok) return resolved;
      merged = typeof merged === 'boolean' ? merged : mergeSchemas(merged, resolved.value);
      if (merged === false) return { ok: true, value: false };
    }
    current = followRefs(merged, doc);
  }
  return current;
}
