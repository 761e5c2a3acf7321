import { canonicalJson } from '../core/canonical-json.js';
import { isObject } from '../core/jsonrpc.js';
import { compileArgumentSchema, describeIssue, type ArgumentValidator } from '../schema/arguments/index.js';
import { enumAdvice } from '../schema/tool-schema/index.js';
import { fake, fakerInput, type Edge, type FakerInput } from './jsf.js';
import { tooLargeToGenerate } from './generation-limits.js';
import { hintsOf, type ValueHints } from './value-hints.js';

export type Arguments = Record<string, unknown>;

/**
 * Schema-valid argument objects for one tool: json-schema-faker proposes, our validator decides. Values whose validity
 * hinges on `format` (an annotation, see FormatDependence) are drawn only when no other value could be found.
 */
export interface ArgumentSource {
  schema: Record<string, unknown>;
  validator: ArgumentValidator;
  /**
   * A valid value for this json-schema-faker seed (one at the edge if asked), or undefined when the proposal was
   * invalid.
   */
  valid(seed: number, small?: boolean): Arguments | undefined;
  /** The edge that yields valid values for this schema (found while preparing); none when neither does. */
  edge?: Edge;
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

/** How a drawn value is judged: by the validator, and whether values that only `format` makes doubtful are taken. */
interface Judge {
  validator: ArgumentValidator;
  formatOnly: boolean;
}

function admitsOneValue(input: FakerInput, judge: Judge, first: Arguments, edge: Edge | undefined): boolean {
  const text = canonicalJson(first);
  for (let seed = 1; seed <= VARIETY_PROBES; seed += 1) {
    for (const at of edge ? [undefined, edge] : [undefined]) {
      const value = attempt(input, judge, 1_000 + seed, at).value;
      if (value !== undefined && canonicalJson(value) !== text) return false;
    }
  }
  return true;
}

/** Seeds tried per edge while preparing. */
const EDGE_PROBES = 4;

/**
 * The narrowest edge some of a few seeded draws satisfy: json-schema-faker's empty strings break a `minLength`, and a
 * draw the validator rejects is wasted work (about half of all draws before this was decided once per schema).
 */
function edgeOf(input: FakerInput, judge: Judge): Edge | undefined {
  for (const edge of ['empty', 'required-only'] as const) {
    for (let seed = 1; seed <= EDGE_PROBES; seed += 1)
      if (attempt(input, judge, 2_000 + seed, edge).value !== undefined) return edge;
  }
  return undefined;
}

function accepts(judge: Judge, value: unknown): boolean {
  const verdict = judge.validator.validate(value);
  return verdict.valid && (judge.formatOnly || verdict.format === undefined);
}

function attempt(
  input: FakerInput,
  judge: Judge,
  seed: number,
  edge?: Edge,
): { value?: Arguments; problem?: string; formatOnly?: Arguments } {
  let value: unknown;
  try {
    value = fake(input, seed, edge);
  } catch (error) {
    return { problem: `json-schema-faker: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}` };
  }
  if (!isObject(value)) return { problem: 'json-schema-faker produced a value that is not an object' };
  const verdict = judge.validator.validate(value);
  if (!verdict.valid)
    return {
      problem:
        `json-schema-faker produced an invalid value (` +
        `${verdict.issues[0] ? describeIssue(verdict.issues[0]) : 'unknown issue'})`,
    };
  if (verdict.format && !judge.formatOnly)
    return {
      problem:
        `json-schema-faker produced a value whose validity hinges on format (` +
        `${describeIssue(verdict.format.issues[0]!)})`,
      formatOnly: value,
    };
  return { value };
}

/** Prepared once per schema object: every property check searching a tool starts from the same source. */
const prepared = new WeakMap<object, PreparedSource>();

/** Compiles the schema and checks that valid values can be generated at all; otherwise says why not. */
export function prepareSource(inputSchema: unknown): PreparedSource {
  if (!isObject(inputSchema)) return { ok: false, reason: 'the inputSchema is not an object' };
  let source = prepared.get(inputSchema);
  if (!source) {
    source = prepareUncached(inputSchema);
    prepared.set(inputSchema, source);
  }
  return source;
}

function prepareUncached(inputSchema: Record<string, unknown>): PreparedSource {
  const compiled = compileArgumentSchema(inputSchema);
  if (!compiled.ok) return { ok: false, reason: compiled.reason };
  const tooLarge = tooLargeToGenerate(inputSchema);
  if (tooLarge) return { ok: false, reason: `values would be too large to generate: ${tooLarge}` };
  const input = fakerInput(inputSchema);
  const judge: Judge = { validator: compiled.validator, formatOnly: false };
  let firstProblem: string | undefined;
  let fallback: Arguments | undefined;
  let formatOnly: Arguments | undefined;
  const started = performance.now();
  let seed = 1;
  for (; seed <= PREPARATION_SEEDS && fallback === undefined; seed += 1) {
    if (performance.now() - started > PREPARATION_BUDGET_MS) {
      return {
        ok: false,
        reason:
          `schema too complex to generate from: ${seed - 1} attempt(s) took over ${PREPARATION_BUDGET_MS} ms ` +
          `without a valid value (${firstProblem ?? 'unknown'})`,
      };
    }
    const result = attempt(input, judge, seed);
    fallback = result.value;
    formatOnly ??= result.formatOnly;
    firstProblem ??= result.problem;
  }
  if (fallback === undefined && formatOnly !== undefined) {
    judge.formatOnly = true;
    fallback = formatOnly;
  }
  if (fallback === undefined) {
    const empty = enumAdvice(inputSchema).find((advice) => advice.problem === 'empty');
    const why = empty
      ? `the enum at ${empty.at} is empty, so no value is valid there (${firstProblem ?? 'unknown'})`
      : (firstProblem ?? 'unknown');
    return {
      ok: false,
      reason: `no valid arguments in ${PREPARATION_SEEDS} attempts (unsatisfiable or unsupported schema): ${why}`,
    };
  }
  // Timed again once warm: the first draws also pay one-off costs (the pattern sandbox's worker start-up, JIT).
  const warm = performance.now();
  attempt(input, judge, seed);
  const perValue = Math.min((warm - started) / (seed - 1), performance.now() - warm);
  if (perValue > MAX_MS_PER_VALUE) {
    return {
      ok: false,
      reason:
        `schema too complex to generate from: about ${Math.round(perValue)} ms per value (over ` +
        `${MAX_MS_PER_VALUE} ms)`,
    };
  }
  const hintsFor = hintsOf(inputSchema, fallback);
  const edge = edgeOf(input, judge);
  return {
    ok: true,
    source: {
      schema: inputSchema,
      validator: judge.validator,
      fallback,
      single: admitsOneValue(input, judge, fallback, edge),
      valid: (seed, small) => attempt(input, judge, seed, small ? edge : undefined).value,
      ...(edge ? { edge } : {}),
      isValid: (value): value is Arguments => isObject(value) && accepts(judge, value),
      hintsFor,
    },
  };
}
