import { failure, numberAt, type Outcome, type SchemaObject } from './schema-node.js';

interface Bound {
  value: number;
  exclusive: boolean;
}

const MAX_MULTIPLE_TRIES = 1_000;

/** The tighter of `minimum` and `exclusiveMinimum` (or of the maxima when `upper`). */
function boundOf(
  schema: SchemaObject,
  inclusiveKeyword: string,
  exclusiveKeyword: string,
  upper: boolean,
): Bound | undefined {
  const inclusive = numberAt(schema, inclusiveKeyword);
  const exclusive = numberAt(schema, exclusiveKeyword);
  if (inclusive === undefined) return exclusive === undefined ? undefined : { value: exclusive, exclusive: true };
  if (exclusive === undefined) return { value: inclusive, exclusive: false };
  const exclusiveIsTighter = upper ? exclusive <= inclusive : exclusive >= inclusive;
  return exclusiveIsTighter ? { value: exclusive, exclusive: true } : { value: inclusive, exclusive: false };
}

class NumberRule {
  readonly lower: Bound | undefined;
  readonly upper: Bound | undefined;
  readonly multipleOf: number | undefined;

  constructor(
    schema: SchemaObject,
    readonly integer: boolean,
  ) {
    this.lower = boundOf(schema, 'minimum', 'exclusiveMinimum', false);
    this.upper = boundOf(schema, 'maximum', 'exclusiveMaximum', true);
    const multipleOf = numberAt(schema, 'multipleOf');
    this.multipleOf = multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined;
  }

  /** Mirrors ajv: bounds, integer-ness, and `value / multipleOf` being a whole number. */
  accepts(value: number): boolean {
    if (!Number.isFinite(value)) return false;
    if (this.integer && !Number.isInteger(value)) return false;
    if (this.lower && (this.lower.exclusive ? value <= this.lower.value : value < this.lower.value)) return false;
    if (this.upper && (this.upper.exclusive ? value >= this.upper.value : value > this.upper.value)) return false;
    return this.multipleOf === undefined || Number.isInteger(value / this.multipleOf);
  }

  /** Where to start looking: 0, the lowest allowed integer or value, or the highest one. */
  *starts(): Generator<number> {
    yield 0;
    const { lower, upper } = this;
    const gap = lower && upper ? Math.min(1, (upper.value - lower.value) / 2) : 1;
    if (lower)
      yield this.integer
        ? lower.exclusive
          ? Math.floor(lower.value) + 1
          : Math.ceil(lower.value)
        : lower.value + (lower.exclusive ? gap : 0);
    if (upper)
      yield this.integer
        ? upper.exclusive
          ? Math.ceil(upper.value) - 1
          : Math.floor(upper.value)
        : upper.value - (upper.exclusive ? gap : 0);
  }

  *multiples(step: number): Generator<number> {
    const upward = this.lower !== undefined || this.upper === undefined;
    let factor = this.lower ? Math.ceil(this.lower.value / step) : this.upper ? Math.floor(this.upper.value / step) : 0;
    for (let i = 0; i < MAX_MULTIPLE_TRIES; i += 1) {
      yield factor * step;
      factor += upward ? 1 : -1;
    }
  }

  describe(): string {
    const parts: string[] = [];
    if (this.lower) parts.push(`${this.lower.exclusive ? 'exclusiveMinimum' : 'minimum'} ${this.lower.value}`);
    if (this.upper) parts.push(`${this.upper.exclusive ? 'exclusiveMaximum' : 'maximum'} ${this.upper.value}`);
    if (this.multipleOf !== undefined) parts.push(`multipleOf ${this.multipleOf}`);
    return `no ${this.integer ? 'integer' : 'number'} satisfies ${parts.join(', ')}`;
  }
}

export function sampleNumber(schema: SchemaObject, integer: boolean): Outcome<number> {
  const rule = new NumberRule(schema, integer);
  for (const start of rule.starts()) if (rule.accepts(start)) return { ok: true, value: start };
  if (rule.multipleOf !== undefined) {
    for (const candidate of rule.multiples(rule.multipleOf))
      if (rule.accepts(candidate)) return { ok: true, value: candidate };
  }
  return failure(rule.describe());
}
