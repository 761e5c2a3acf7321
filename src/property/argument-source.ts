import { canonicalJson } from '../canonical-json.js';
import { isObject } from '../jsonrpc.js';
import { describeIssue } from '../schema/arguments/ajv-issues.js';
import { rootView } from '../schema/arguments/root-view.js';
import { documentOf, resolveNode } from '../schema/arguments/schema-document.js';
import { numberAt } from '../schema/arguments/schema-node.js';
import { compileArgumentSchema, type ArgumentValidator } from '../schema/arguments/validate.js';
import { fake, fakerInput, type FakerInput } from './jsf.js';
import { tooLargeToGenerate } from './generation-limits.js';
import type { ValueHints } from './shrink-json.js';

export type Arguments = Record<string, unknown>;

/** Schema-valid argument objects for one tool: json-schema-faker proposes, our validator decides. */
export interface ArgumentSource {
  schema: Record<string, unknown>;
  validator: ArgumentValidator;
  /** A valid value for this json-schema-faker seed (a small one if asked), or undefined when the proposal was invalid. */
  valid(seed: number, small?: boolean): Arguments | undefined;
  isValid(value: unknown): value is Arguments;
  hintsFor(name: string): ValueHints;
  /** A valid value found while preparing, used when a draw keeps failing. */
  fallback: Arguments;
  /** The schema seems to admit one value only (`{}` for a tool without parameters): one case says all. */
  single: boolean;
}

export type PreparedSource = { ok: true; source: ArgumentSource } | { ok: false; reason: string };

/** Seeds tried while preparing; a schema none of them satisfies is reported as a skip. */
const PREPARATION_SEEDS = 64;
/** Time allowed for finding the first valid value, and the slowest generation accepted per value. */
const PREPARATION_BUDGET_MS = 1_000;
const MAX_MS_PER_VALUE = 50;
/** Further values drawn to see whether the schema admits more than one. */
const VARIETY_PROBES = 8;

function admitsOneValue(input: FakerInput, validator: ArgumentValidator, first: Arguments): boolean {
  const text = canonicalJson(first);
  for (let seed = 1; seed <= VARIETY_PROBES; seed += 1) {
    for (const small of [false, true]) {
      const value = attempt(input, validator, 1_000 + seed, small).value;
      if (value !== undefined && canonicalJson(value) !== text) return false;
    }
  }
  return true;
}

function hintsOf(schema: Record<string, unknown>, sample: Arguments): (name: string) => ValueHints {
  const doc = documentOf(schema);
  const view = rootView(doc, sample);
  const cache = new Map<string, ValueHints>();
  return (name) => {
    let hints = cache.get(name);
    if (hints) return hints;
    hints = {};
    const resolved = view ? resolveNode(view.propertySchema(name) ?? true, doc) : undefined;
    if (resolved?.ok && isObject(resolved.value)) {
      const node = resolved.value;
      if (Array.isArray(node['enum'])) hints.enum = node['enum'];
      const lower = numberAt(node, 'minimum') ?? numberAt(node, 'exclusiveMinimum');
      if (lower !== undefined) hints.lowerBound = lower;
    }
    cache.set(name, hints);
    return hints;
  };
}

function attempt(input: FakerInput, validator: ArgumentValidator, seed: number, small = false): { value?: Arguments; problem?: string } {
  let value: unknown;
  try {
    value = fake(input, seed, small);
  } catch (error) {
    return { problem: `json-schema-faker: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}` };
  }
  if (!isObject(value)) return { problem: 'json-schema-faker produced a value that is not an object' };
  const verdict = validator.validate(value);
  if (!verdict.valid) return { problem: `json-schema-faker produced an invalid value (${verdict.issues[0] ? describeIssue(verdict.issues[0]) : 'unknown issue'})` };
  return { value };
}

/** Compiles the schema and checks that valid values can be generated at all; otherwise says why not. */
export function prepareSource(inputSchema: unknown): PreparedSource {
  if (!isObject(inputSchema)) return { ok: false, reason: 'the inputSchema is not an object' };
  const compiled = compileArgumentSchema(inputSchema);
  if (!compiled.ok) return { ok: false, reason: compiled.reason };
  const tooLarge = tooLargeToGenerate(inputSchema);
  if (tooLarge) return { ok: false, reason: `values would be too large to generate: ${tooLarge}` };
  const input = fakerInput(inputSchema);
  const validator = compiled.validator;
  let firstProblem: string | undefined;
  let fallback: Arguments | undefined;
  const started = performance.now();
  let seed = 1;
  for (; seed <= PREPARATION_SEEDS && fallback === undefined; seed += 1) {
    if (performance.now() - started > PREPARATION_BUDGET_MS) {
      return { ok: false, reason: `schema too complex to generate from: ${seed - 1} attempt(s) took over ${PREPARATION_BUDGET_MS} ms without a valid value (${firstProblem ?? 'unknown'})` };
    }
    const result = attempt(input, validator, seed);
    fallback = result.value;
    firstProblem ??= result.problem;
  }
  if (fallback === undefined) {
    return { ok: false, reason: `no valid arguments in ${PREPARATION_SEEDS} attempts (unsatisfiable or unsupported schema): ${firstProblem ?? 'unknown'}` };
  }
  // Timed again once warm: the first draws also pay one-off costs (the pattern sandbox's worker start-up, JIT).
  const warm = performance.now();
  attempt(input, validator, seed);
  const perValue = Math.min((warm - started) / (seed - 1), performance.now() - warm);
  if (perValue > MAX_MS_PER_VALUE) {
    return { ok: false, reason: `schema too complex to generate from: about ${Math.round(perValue)} ms per value (over ${MAX_MS_PER_VALUE} ms)` };
  }
  const hintsFor = hintsOf(inputSchema, fallback);
  return {
    ok: true,
    source: {
      schema: inputSchema,
      validator,
      fallback,
      single: admitsOneValue(input, validator, fallback),
      valid: (seed, small) => attempt(input, validator, seed, small).value,
      isValid: (value): value is Arguments => isObject(value) && validator.validate(value).valid,
      hintsFor,
    },
  };
}
