import { escapePointerToken } from '../tool-schema/json-pointer.js';
import { shorten } from '../tool-schema/shorten.js';
import { mergeSchemas } from './merge-schemas.js';
import { matchesPattern } from './pattern-sample.js';
import { sampleNumber } from './sample-number.js';
import { sampleString } from './sample-string.js';
import { followRefs, resolveNode, TOO_COMPLEX, type SchemaDocument } from './schema-document.js';
import {
  cloneJson,
  countAt,
  declaredTypes,
  failure,
  impliedType,
  objectAt,
  schemaListAt,
  setOwn,
  stringsAt,
  without,
  type Outcome,
  type SchemaObject,
} from './schema-node.js';

export interface SampleContext {
  doc: SchemaDocument;
  /** Use nested `examples[0]`/`default` before constructing a value. */
  useHints: boolean;
  /** Validates `value` against a subschema on its own; undefined when that cannot be checked. */
  checkLocally(schema: SchemaObject, value: unknown): boolean | undefined;
}

const MAX_DEPTH = 48;
const MAX_BRANCHES = 16;
const MAX_ITEMS = 256;
const MAX_PROPERTIES = 256;

type Sampled = Outcome<unknown>;

class Sampler {
  constructor(private readonly ctx: SampleContext) {}

  private fail(path: string, reason: string): Sampled {
    return failure(
      reason.startsWith('at ') || reason === TOO_COMPLEX ? reason : `at ${path === '' ? '(root)' : path}: ${reason}`,
    );
  }

  value(schema: unknown, path: string, depth: number, fallbackType: string): Sampled {
    if (depth > MAX_DEPTH) return this.fail(path, `schema nesting or recursion is deeper than ${MAX_DEPTH} levels`);
    if (!this.ctx.doc.budget.spend()) return failure(TOO_COMPLEX);
    const resolved = resolveNode(schema, this.ctx.doc);
    if (!resolved.ok) return this.fail(path, resolved.reason);
    const node = resolved.value;
    if (node === false) return this.fail(path, 'schema false accepts no value');
    if (node === true) return this.typed({}, fallbackType, path, depth);
    if (this.ctx.useHints && depth > 0) {
      const examples = schemaListAt(node, 'examples');
      if (examples.length > 0) return { ok: true, value: cloneJson(examples[0]) };
      if (Object.hasOwn(node, 'default')) return { ok: true, value: cloneJson(node['default']) };
    }
    for (const keyword of ['oneOf', 'anyOf']) {
      if (schemaListAt(node, keyword).length > 0) return this.branches(node, keyword, path, depth, fallbackType);
    }
    if (Object.hasOwn(node, 'const')) return { ok: true, value: cloneJson(node['const']) };
    if (Array.isArray(node['enum'])) {
      return node['enum'].length > 0
        ? { ok: true, value: cloneJson(node['enum'][0]) }
        : this.fail(path, 'enum is empty, so no value is valid');
    }
    const declared = declaredTypes(node);
    if (declared === undefined) return this.typed(node, impliedType(node) ?? fallbackType, path, depth);
    const type = declared.find((entry) => entry !== 'null') ?? declared[0];
    if (type === undefined) return this.fail(path, 'no type satisfies every allOf branch');
    return this.typed(node, type, path, depth);
  }

  /** The first branch whose value also satisfies the whole schema (so `oneOf` matches exactly one). */
  private branches(node: SchemaObject, keyword: string, path: string, depth: number, fallbackType: string): Sampled {
    const base = without(node, keyword);
    let firstReason: string | undefined;
    for (const branch of schemaListAt(node, keyword).slice(0, MAX_BRANCHES)) {
      const resolved = followRefs(branch, this.ctx.doc);
      if (!resolved.ok) {
        firstReason ??= resolved.reason;
        continue;
      }
      const merged = mergeSchemas(base, resolved.value);
      const sampled = this.value(merged, path, depth + 1, fallbackType);
      if (!sampled.ok) {
        if (sampled.reason === TOO_COMPLEX) return sampled;
        firstReason ??= sampled.reason;
        continue;
      }
      if (this.ctx.checkLocally(node, sampled.value) !== false) return sampled;
      firstReason ??= 'its value does not satisfy the whole schema';
    }
    return this.fail(path, `no ${keyword} branch yields a valid value (first problem: ${firstReason ?? 'none tried'})`);
  }

  private typed(node: SchemaObject, type: string, path: string, depth: number): Sampled {
    switch (type) {
      case 'object':
        return this.object(node, path, depth);
      case 'array':
        return this.array(node, path, depth);
      case 'string':
        return this.wrap(sampleString(node), path);
      case 'number':
      case 'integer':
        return this.wrap(sampleNumber(node, type === 'integer'), path);
      case 'boolean':
        return { ok: true, value: false };
      case 'null':
        return { ok: true, value: null };
      default:
        return this.fail(path, `unknown type ${shorten(type, 40)}`);
    }
  }

  private wrap(outcome: Sampled, path: string): Sampled {
    return outcome.ok ? outcome : this.fail(path, outcome.reason);
  }

  private propertySchema(node: SchemaObject, name: string): unknown {
    const properties = objectAt(node, 'properties');
    if (properties !== undefined && Object.hasOwn(properties, name)) return properties[name];
    for (const [pattern, schema] of Object.entries(objectAt(node, 'patternProperties') ?? {})) {
      if (matchesPattern(pattern, name)) return schema;
    }
    return Object.hasOwn(node, 'additionalProperties') ? node['additionalProperties'] : true;
  }

  /** Required names, their `dependentRequired` names, then optional ones until `minProperties` is reached. */
  private propertyNames(node: SchemaObject): string[] {
    const names = stringsAt(node, 'required');
    const dependents = objectAt(node, 'dependentRequired') ?? {};
    for (let i = 0; i < names.length && names.length <= MAX_PROPERTIES; i += 1) {
      const name = names[i]!;
      if (!Object.hasOwn(dependents, name)) continue;
      for (const dependent of stringsAt(dependents, name)) if (!names.includes(dependent)) names.push(dependent);
    }
    const minProperties = countAt(node, 'minProperties') ?? 0;
    for (const name of Object.keys(objectAt(node, 'properties') ?? {})) {
      if (names.length >= minProperties) break;
      if (!names.includes(name)) names.push(name);
    }
    for (let i = 1; names.length < minProperties && i <= MAX_PROPERTIES; i += 1) {
      if (!names.includes(`property${i}`)) names.push(`property${i}`);
    }
    return names;
  }

  private object(node: SchemaObject, path: string, depth: number): Sampled {
    const names = this.propertyNames(node);
    if (names.length > MAX_PROPERTIES) return this.fail(path, `more than ${MAX_PROPERTIES} properties would be needed`);
    const value: Record<string, unknown> = {};
    for (const name of names) {
      const schema = this.propertySchema(node, name);
      const childPath = `${path}/${escapePointerToken(name)}`;
      if (schema === false) return this.fail(childPath, `property "${shorten(name, 40)}" is required but not allowed`);
      const sampled = this.value(schema, childPath, depth + 1, 'string');
      if (!sampled.ok) return sampled;
      setOwn(value, name, sampled.value);
    }
    return { ok: true, value };
  }

  private itemSchema(node: SchemaObject, index: number): unknown {
    const items = node['items'];
    const prefix = Array.isArray(node['prefixItems']) ? node['prefixItems'] : Array.isArray(items) ? items : [];
    if (index < prefix.length) return prefix[index];
    const rest = Array.isArray(items) ? node['additionalItems'] : items;
    const itemSchema = rest ?? true;
    const minContains = Object.hasOwn(node, 'contains') ? (countAt(node, 'minContains') ?? 1) : 0;
    if (index >= minContains) return itemSchema;
    return { allOf: [itemSchema, node['contains']] };
  }

  private array(node: SchemaObject, path: string, depth: number): Sampled {
    const minContains = Object.hasOwn(node, 'contains') ? (countAt(node, 'minContains') ?? 1) : 0;
    const length = Math.max(countAt(node, 'minItems') ?? 0, minContains);
    if (length > MAX_ITEMS) return this.fail(path, `minItems ${length} is too large to sample`);
    const value: unknown[] = [];
    for (let index = 0; index < length; index += 1) {
      const sampled = this.value(this.itemSchema(node, index), `${path}/${index}`, depth + 1, 'string');
      if (!sampled.ok) return sampled;
      value.push(sampled.value);
    }
    return { ok: true, value };
  }
}

/** A small deterministic value for `schema`; not yet validated against the whole document. */
export function sampleValue(schema: unknown, ctx: SampleContext): Outcome<unknown> {
  return new Sampler(ctx).value(schema, '', 0, 'object');
}
