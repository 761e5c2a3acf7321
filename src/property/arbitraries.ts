import * as fc from 'fast-check';
import { canonicalJson } from '../core/canonical-json.js';
import { pickInvalidArguments, type InvalidArguments, type UndeclaredDialect } from '../schema/arguments/index.js';
import type { Arguments, ArgumentSource } from './argument-source.js';
import { biasTowardEdges } from './edge-bias.js';
import { shrinkObject } from './shrink-json.js';

/** Draws that json-schema-faker may fail before the prepared fallback value is used. */
const DRAWS_PER_VALUE = 16;
/** Shrink candidates looked at per step; most are discarded by the validator without touching the target. */
const MAX_CANDIDATES_PER_STEP = 400;

/**
 * Schema-valid arguments: fast-check's random source picks a json-schema-faker seed and the edge bias, so the
 * fast-check seed reproduces every value. Shrinking proposes smaller neighbours (fewer properties, shorter strings and
 * arrays, numbers toward the lower bound or 0, enum values toward the first) and keeps only those the validator
 * accepts.
 */
export class ValidArguments extends fc.Arbitrary<Arguments> {
  constructor(private readonly source: ArgumentSource) {
    super();
  }

  generate(mrng: fc.Random): fc.Value<Arguments> {
    // One case in four explores the edge (required properties only, empty strings and arrays), where bugs gather.
    const small = mrng.nextInt(0, 3) === 0;
    for (let draw = 0; draw < DRAWS_PER_VALUE; draw += 1) {
      const value = this.source.valid(mrng.nextInt(0, 0x7fffffff), small && draw < DRAWS_PER_VALUE / 2);
      if (value !== undefined) return new fc.Value(this.biased(value, mrng), undefined);
    }
    return new fc.Value(structuredClone(this.source.fallback), undefined);
  }

  private biased(value: Arguments, mrng: fc.Random): Arguments {
    if (this.source.single) return value;
    return biasTowardEdges(value, this.source.hintsFor, this.source.isValid, (count) => mrng.nextInt(0, count - 1));
  }

  canShrinkWithoutContext(value: unknown): value is Arguments {
    return this.source.isValid(value);
  }

  shrink(value: Arguments): fc.Stream<fc.Value<Arguments>> {
    return new fc.Stream(this.validNeighbours(value));
  }

  private *validNeighbours(value: Arguments): Generator<fc.Value<Arguments>> {
    const seen = new Set<string>([canonicalJson(value)]);
    let looked = 0;
    for (const candidate of shrinkObject(value, this.source.hintsFor)) {
      if ((looked += 1) > MAX_CANDIDATES_PER_STEP) return;
      const key = canonicalJson(candidate);
      if (seen.has(key)) continue;
      seen.add(key);
      if (this.source.isValid(candidate)) yield new fc.Value(candidate, undefined);
    }
  }
}

/** A schema-invalid case: a valid object and one targeted mutation of it, re-checked to be invalid. */
export interface InvalidCase {
  valid: Arguments;
  mutation: InvalidArguments;
}

/**
 * The mutation index shrinks toward 0: the first kind in round-robin order (a dropped required property). `undeclared`
 * says how a schema without `$schema` is read (in any dialect: only a mutation every reading rejects is a case).
 */
export function invalidCases(
  source: ArgumentSource,
  undeclared: UndeclaredDialect = 'default',
): fc.Arbitrary<InvalidCase | undefined> {
  return fc.tuple(new ValidArguments(source), fc.nat({ max: 63 })).map(([valid, pick]) => {
    const mutation = pickInvalidArguments(source.schema, valid, pick, undeclared);
    return mutation ? { valid, mutation } : undefined;
  });
}
