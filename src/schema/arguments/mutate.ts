import { isObject } from '../../core/jsonrpc.js';
import { escapePointerToken } from '../tool-schema/json-pointer.js';
import { shorten } from '../tool-schema/shorten.js';
import { rootView, type RootView } from './root-view.js';
import { documentOf, resolveNode, type SchemaDocument } from './schema-document.js';
import { cloneJson, codePointLength, countAt, declaredTypes, setOwn, type SchemaObject } from './schema-node.js';
import { compileArgumentSchema, isUndecided, type ArgumentValidator, type UndeclaredDialect } from './validate.js';
import {
  aboveMaximumValues,
  belowMinimumValues,
  coercesTo,
  describeValue,
  enumMissValue,
  recodedValue,
  wrongTypeValues,
} from './wrong-values.js';

export type InvalidArgumentsKind =
  | 'missing-required'
  | 'wrong-type'
  | 'enum-miss'
  | 'pattern-miss'
  | 'below-minimum'
  | 'above-maximum'
  | 'too-short'
  | 'too-long'
  | 'extra-property'
  | 'null-value';

/**
 * How a validator looser than the schema still reads a mutation, without leaving the value unchecked: a wrong-type
 * value converted to the declared type, null on an optional property taken for its absence, an undeclared property
 * set aside. Mutations without one can only be refused.
 */
export type LenientReading = 'coercion' | 'null-as-absent' | 'ignored';

export interface InvalidArguments {
  kind: InvalidArgumentsKind;
  path: string;
  value: Record<string, unknown>;
  description: string;
  lenientReading?: LenientReading;
}

/** Round-robin order over kinds, so a schema with many required properties still yields varied mutations. */
const KIND_ORDER: readonly InvalidArgumentsKind[] = [
  'missing-required',
  'wrong-type',
  'enum-miss',
  'pattern-miss',
  'below-minimum',
  'above-maximum',
  'too-short',
  'too-long',
  'extra-property',
  'null-value',
];
const MAX_RESULTS = 12;
const MAX_PROPERTIES_MUTATED = 64;
const MAX_STRING_MUTATION_LENGTH = 65_536;

interface Proposal {
  kind: InvalidArgumentsKind;
  name: string;
  /** undefined removes the property. */
  replacement: unknown;
  description: string;
  lenientReading?: LenientReading;
}

function quoted(name: string): string {
  return `"${shorten(name, 60)}"`;
}

function withChange(valid: Record<string, unknown>, name: string, replacement: unknown): Record<string, unknown> {
  const value = cloneJson(valid);
  if (replacement === undefined) delete value[name];
  else setOwn(value, name, replacement);
  return value;
}

function rangeProposals(name: string, schema: SchemaObject): Proposal[] {
  const types = declaredTypes(schema) ?? [];
  const integer = types.includes('integer') && !types.includes('number');
  return [
    ...belowMinimumValues(schema, integer).map((value): Proposal => ({
      kind: 'below-minimum',
      name,
      replacement: value,
      description: `${quoted(name)} set to ${value}, below its minimum`,
    })),
    ...aboveMaximumValues(schema, integer).map((value): Proposal => ({
      kind: 'above-maximum',
      name,
      replacement: value,
      description: `${quoted(name)} set to ${value}, above its maximum`,
    })),
  ];
}

function lengthProposals(name: string, schema: SchemaObject, current: unknown): Proposal[] {
  const proposals: Proposal[] = [];
  const text = typeof current === 'string' ? current : '';
  const minLength = countAt(schema, 'minLength');
  const maxLength = countAt(schema, 'maxLength');
  if (minLength !== undefined && minLength > 0 && minLength <= MAX_STRING_MUTATION_LENGTH) {
    const shorter = [...text]
      .slice(0, minLength - 1)
      .join('')
      .padEnd(minLength - 1, 'a');
    proposals.push({
      kind: 'too-short',
      name,
      replacement: shorter,
      description: `${quoted(name)} shortened to ${minLength - 1} characters (minLength ${minLength})`,
    });
  }
  if (maxLength !== undefined && maxLength < MAX_STRING_MUTATION_LENGTH) {
    const longer = text + 'a'.repeat(Math.max(1, maxLength + 1 - codePointLength(text)));
    proposals.push({
      kind: 'too-long',
      name,
      replacement: longer,
      description: `${quoted(name)} lengthened to ${codePointLength(longer)} characters (maxLength ${maxLength})`,
    });
  }
  return proposals;
}

/** Strings few patterns accept; the validator keeps the ones this pattern rejects. */
const PATTERN_MISSES: readonly string[] = ['', '!', ' ', '\u0000', '-1', 'Ω'];

function patternProposals(name: string, schema: SchemaObject): Proposal[] {
  const pattern = schema['pattern'];
  if (typeof pattern !== 'string') return [];
  return PATTERN_MISSES.map((miss) => ({
    kind: 'pattern-miss',
    name,
    replacement: miss,
    description:
      `${quoted(name)} set to ${JSON.stringify(miss)}, which its pattern ${shorten(pattern, 60)} does ` + `not match`,
  }));
}

/**
 * Values of a wrong type, those no coercion turns into the declared type first: the first one probes whether types are
 * checked at all, which a coercible value cannot show (a validator that coerces accepts it, and so does none).
 */
function wrongTypeProposals(name: string, schema: SchemaObject, current: unknown): Proposal[] {
  const types = declaredTypes(schema);
  const wrong = wrongTypeValues(schema, current);
  const recoded = recodedValue(current);
  if (recoded !== undefined && !wrong.some((value) => value === recoded)) wrong.push(recoded);
  const coercible = wrong.filter((value) => coercesTo(types, value));
  return [
    ...wrong
      .filter((value) => !coercible.includes(value))
      .map((value): Proposal => ({
        kind: 'wrong-type',
        name,
        replacement: value,
        description: `${quoted(name)} set to ${describeValue(value)}, a value of the wrong type`,
      })),
    ...coercible.map((value): Proposal => ({
      kind: 'wrong-type',
      name,
      replacement: value,
      description:
        `${quoted(name)} set to ${describeValue(value)}, a value of the wrong type that converts to its ` +
        `declared type (${types!.join(' or ')})`,
      lenientReading: 'coercion',
    })),
  ];
}

function propertyProposals(name: string, schema: SchemaObject, current: unknown, required: boolean): Proposal[] {
  const proposals: Proposal[] = wrongTypeProposals(name, schema, current);
  const allowed = Array.isArray(schema['enum'])
    ? schema['enum']
    : Object.hasOwn(schema, 'const')
      ? [schema['const']]
      : undefined;
  if (allowed !== undefined && allowed.length > 0) {
    const miss = enumMissValue(allowed);
    proposals.push({
      kind: 'enum-miss',
      name,
      replacement: miss,
      description: `${quoted(name)} set to ${describeValue(miss)}, outside its allowed values`,
    });
  }
  proposals.push(
    ...patternProposals(name, schema),
    ...rangeProposals(name, schema),
    ...lengthProposals(name, schema, current),
  );
  proposals.push(
    required
      ? { kind: 'null-value', name, replacement: null, description: `required ${quoted(name)} set to null` }
      : {
          kind: 'null-value',
          name,
          replacement: null,
          description: `optional ${quoted(name)} set to null`,
          lenientReading: 'null-as-absent',
        },
  );
  return proposals;
}

function extraPropertyName(valid: Record<string, unknown>, view: RootView): string {
  let name = 'unexpectedProperty';
  for (let i = 2; Object.hasOwn(valid, name) || view.declares(name); i += 1) name = `unexpectedProperty${i}`;
  return name;
}

function proposalsFor(valid: Record<string, unknown>, view: RootView, doc: SchemaDocument): Proposal[] {
  const proposals: Proposal[] = view.required
    .filter((name) => Object.hasOwn(valid, name))
    .map((name) => ({
      kind: 'missing-required',
      name,
      replacement: undefined,
      description: `required property ${quoted(name)} removed`,
    }));
  for (const name of Object.keys(valid).slice(0, MAX_PROPERTIES_MUTATED)) {
    const resolved = resolveNode(view.propertySchema(name) ?? true, doc);
    if (resolved.ok && isObject(resolved.value))
      proposals.push(...propertyProposals(name, resolved.value, valid[name], view.required.includes(name)));
  }
  const extra = extraPropertyName(valid, view);
  proposals.push({
    kind: 'extra-property',
    name: extra,
    replacement: 'unexpected',
    description: `undeclared property ${quoted(extra)} added`,
    lenientReading: 'ignored',
  });
  return proposals;
}

/** The mutation a proposal makes, when the validator rejects it (undecided verdicts do not count). */
function rejected(
  proposal: Proposal,
  valid: Record<string, unknown>,
  validator: ArgumentValidator,
): InvalidArguments | undefined {
  const value = withChange(valid, proposal.name, proposal.replacement);
  const verdict = validator.validate(value);
  if (verdict.valid || isUndecided(verdict)) return undefined;
  return {
    kind: proposal.kind,
    path: `/${escapePointerToken(proposal.name)}`,
    value,
    description: proposal.description,
    ...(proposal.lenientReading ? { lenientReading: proposal.lenientReading } : {}),
  };
}

/** The proposals the validator rejects, at most one per kind and property, taken round-robin across kinds. */
function selectRejected(
  proposals: readonly Proposal[],
  valid: Record<string, unknown>,
  validator: ArgumentValidator,
): InvalidArguments[] {
  const byKind = new Map<InvalidArgumentsKind, InvalidArguments[]>(KIND_ORDER.map((kind) => [kind, []]));
  const done = new Set<string>();
  for (const proposal of proposals) {
    const identity = `${proposal.kind}\u0000${proposal.name}`;
    if (done.has(identity)) continue;
    const mutation = rejected(proposal, valid, validator);
    if (!mutation) continue;
    done.add(identity);
    byKind.get(proposal.kind)!.push(mutation);
  }
  const selected: InvalidArguments[] = [];
  for (let round = 0; selected.length < MAX_RESULTS; round += 1) {
    const before = selected.length;
    for (const kind of KIND_ORDER) {
      const next = byKind.get(kind)![round];
      if (next !== undefined && selected.length < MAX_RESULTS) selected.push(next);
    }
    if (selected.length === before) break;
  }
  return selected;
}

/**
 * Targeted, deterministic mutations of `valid`, each breaking one constraint of a top-level property
 * (or of the root: a dropped required property, an undeclared property). Only mutations the compiled
 * validator rejects are returned, at most 12 (with `any-dialect`, those every reading of a schema without `$schema`
 * rejects). Returns [] when the schema cannot be compiled or `valid` is not itself accepted (mutating an invalid object
 * proves nothing).
 */
export function invalidArguments(
  schema: unknown,
  valid: Record<string, unknown>,
  undeclared: UndeclaredDialect = 'default',
): InvalidArguments[] {
  const candidates = candidatesFor(schema, valid, undeclared);
  return candidates ? selectRejected(candidates.proposals, valid, candidates.validator) : [];
}

/**
 * The proposals for `valid` and the validator that judges them; undefined when the schema cannot be used or rejects
 * `valid`.
 */
function candidatesFor(
  schema: unknown,
  valid: Record<string, unknown>,
  undeclared: UndeclaredDialect,
): { proposals: Proposal[]; validator: ArgumentValidator } | undefined {
  if (!isObject(schema) || !isObject(valid)) return undefined;
  const compiled = compileArgumentSchema(schema, undeclared);
  if (!compiled.ok || !compiled.validator.validate(valid).valid) return undefined;
  const doc = documentOf(schema);
  const view = rootView(doc, valid);
  return view === undefined ? undefined : { proposals: proposalsFor(valid, view, doc), validator: compiled.validator };
}

/**
 * One mutation of `valid` that the validator rejects, chosen by `pick` without judging every proposal (the property
 * search needs one per case, and judging all of them cost about 40 validations): the kinds that have proposals are
 * taken round-robin from `pick`, and within a kind the proposals from `pick` on; the first rejected one is returned.
 * Undefined when the schema cannot be used or no proposal is rejected.
 */
export function pickInvalidArguments(
  schema: unknown,
  valid: Record<string, unknown>,
  pick: number,
  undeclared: UndeclaredDialect = 'default',
): InvalidArguments | undefined {
  const candidates = candidatesFor(schema, valid, undeclared);
  if (!candidates) return undefined;
  const kinds = KIND_ORDER.map((kind) => candidates.proposals.filter((p) => p.kind === kind)).filter(
    (list) => list.length > 0,
  );
  for (let k = 0; k < kinds.length; k += 1) {
    const list = kinds[(pick + k) % kinds.length]!;
    const start = Math.floor(pick / kinds.length) % list.length;
    for (let j = 0; j < list.length; j += 1) {
      const mutation = rejected(list[(start + j) % list.length]!, valid, candidates.validator);
      if (mutation) return mutation;
    }
  }
  return undefined;
}
