import {
  ERR,
  errorOf,
  type Exchange,
  type InvalidArguments,
  isObject,
  type LenientReading,
  LATEST_REVISION,
  type Outcome,
  parsePointer,
  resultOf,
  type SpecSentence,
  type SpecSentences,
  type Revision,
  REVISIONS,
} from '../kit/index.js';
import { fail, note, skip } from '../kit/outcome.js';
import { blotWords } from './blot-words.js';

/*
 * How the answer to schema-invalid arguments is judged, by tools.err.execution-errors (one mutation of each tool's
 * scripted sample) and tools.err.execution-errors.property (generated cases) alike. The control is the schema-valid
 * call the mutation was made from: the scripted sample, or the generated valid case.
 */

const VALIDATE_INPUTS: SpecSentence = {
  ref: 'server/tools#security-considerations',
  text: 'Servers MUST: Validate all tool inputs',
  keyword: 'MUST',
};

/** server/tools § Error Handling before 2025-11-25, in the same words in each of those revisions. */
const INVALID_ARGUMENTS_OR_DATA: SpecSentence = {
  ref: 'server/tools#error-handling',
  text:
    'Protocol Errors: Standard JSON-RPC errors for issues like: … Invalid arguments … Tool Execution Errors: ' +
    'Reported in tool results with isError: true: … Invalid input data',
  keyword: 'descriptive',
};

/** The same text in every revision: what a server that accepts more than its inputSchema describes departs from. */
const INPUT_SCHEMA_DEFINES: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'inputSchema: JSON Schema defining expected parameters',
  keyword: 'descriptive',
};

/**
 * How the tools page describes the refusal of invalid input. From 2025-11-25 on, input validation errors are tool
 * execution errors (isError); before, invalid arguments are protocol errors (JSON-RPC errors) and invalid input data
 * tool execution errors, so either way of refusing is the one described.
 */
const INPUT_VALIDATION_ERRORS: Record<Revision, SpecSentence> = {
  '2026-07-28': {
    ref: 'server/tools#error-handling',
    text:
      'Tool Execution Errors contain actionable feedback … Input validation errors (e.g., date in wrong format, ' +
      'value out of range) … They are reported in tool results with isError: true',
    keyword: 'descriptive',
  },
  '2025-11-25': {
    ref: 'server/tools#error-handling',
    text:
      'Tool Execution Errors: Reported in tool results with isError: true: … Input validation errors (e.g., ' +
      'date in wrong format, value out of range)',
    keyword: 'descriptive',
  },
  '2025-06-18': INVALID_ARGUMENTS_OR_DATA,
  '2025-03-26': INVALID_ARGUMENTS_OR_DATA,
  '2024-11-05': INVALID_ARGUMENTS_OR_DATA,
};

/** Whether the revision's tools page describes input validation errors as isError results only (2025-11-25 on). */
const describesIsError = (wire: Revision): boolean => INPUT_VALIDATION_ERRORS[wire] !== INVALID_ARGUMENTS_OR_DATA;

/**
 * The sentences behind tools.err.execution-errors and its property-based counterpart: the MUST is in every revision.
 */
export const VALIDATE_INPUTS_SENTENCES: SpecSentences = Object.fromEntries(
  REVISIONS.map((wire) => [wire, [VALIDATE_INPUTS, INPUT_VALIDATION_ERRORS[wire], INPUT_SCHEMA_DEFINES]]),
);

/** What a refusal of invalid arguments looks like, as the tools page of the revision describes it. */
export function refusalExpected(wire: Revision): string {
  return describesIsError(wire)
    ? 'the input refused: a result with isError: true (as the tools page describes), or a JSON-RPC error; ' +
        'servers MUST validate all tool inputs'
    : 'the input refused: a JSON-RPC error (the tools page counts invalid arguments among protocol errors) or a ' +
        'result with isError: true (invalid input data); servers MUST validate all tool inputs';
}

export const describeAnswer = (e: Exchange) => {
  const error = errorOf(e.response);
  if (error) return `error ${String(error.code)} "${String(error.message).slice(0, 120)}"`;
  const result = resultOf(e.response);
  if (result)
    return result.isError === true ? 'an isError result' : `a ${String(result.resultType ?? 'complete')} result`;
  return e.failure?.message ?? 'no answer';
};

export type InvalidVerdict =
  /** The input was refused; `code` when by a JSON-RPC error rather than an isError result. */
  | { verdict: 'refused'; code?: number }
  /** "Servers MUST: Validate all tool inputs" is broken: the invalid value was used unchecked. */
  | { verdict: 'breach'; problem: string }
  /** Accepted the way a looser validator reads it (LenientReading): a warning resting on a descriptive sentence. */
  | { verdict: 'lenient'; reading: LenientReading; problem: string }
  /** Whether the input was checked cannot be told from this answer. */
  | { verdict: 'inconclusive'; why: string };

/** At most this much of an answer's text is compared or searched. */
const READ_CHARS = 4_000;

function contentText(result: Record<string, unknown>): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  return blocks
    .map((b) =>
      isObject(b) && b.type === 'text' && typeof b.text === 'string'
        ? b.text
        : isObject(b)
          ? `[${String(b.type)}]`
          : '',
    )
    .join('\n')
    .slice(0, READ_CHARS);
}

/** The names and texts of argument objects, longest first: what an answer may echo from the arguments it was given. */
function argumentTokens(objects: readonly unknown[]): string[] {
  const tokens = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string' || typeof value === 'boolean') tokens.add(String(value).toLowerCase());
    if (depth > 8) return;
    if (Array.isArray(value)) value.slice(0, 64).forEach((v) => visit(v, depth + 1));
    else if (isObject(value)) {
      for (const [key, v] of Object.entries(value).slice(0, 64)) {
        tokens.add(key.toLowerCase());
        visit(v, depth + 1);
      }
    }
  };
  objects.forEach((o) => visit(o, 0));
  return [...tokens].filter((t) => t.trim() !== '' && t.length <= READ_CHARS).sort((a, b) => b.length - a.length);
}

/**
 * How an answer fails, in a form comparable between two calls that differ only in their arguments: the JSON-RPC error
 * code and message, or the text of an isError result (text blocks in full, other blocks by type), lower-cased, with
 * every name and text of either call's arguments that stands as a word, and every run of digits, blotted out. An error
 * that echoes the path it could not open, or carries a request id or a time, is still the same error. Undefined when
 * the answer does not fail.
 */
export function failureSignature(exchange: Exchange, tokens: readonly string[]): string | undefined {
  const error = errorOf(exchange.response);
  const result = resultOf(exchange.response);
  let text: string;
  if (error) text = `error ${String(error.code)}: ${String(error.message).slice(0, READ_CHARS)}`;
  else if (result?.isError === true) text = `isError: ${contentText(result)}`;
  else return undefined;
  return blotWords(text.toLowerCase(), tokens).replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** Words by which an answer says an argument was set aside, looked for outside the argument's own name and value. */
const SET_ASIDE =
  /\b(ignored|ignoring|unknown|unexpected|unsupported|not supported|unrecogni[sz]ed|not recogni[sz]ed|not allowed|not accepted|not expected|extra|additional|superfluous|dropped|discarded|stripped)\b/i;

/** The answer's text names the undeclared property and says, in words of its own, that it was set aside. */
function saysIgnored(result: Record<string, unknown>, mutation: InvalidArguments): string | undefined {
  const parsed = parsePointer(mutation.path);
  const name = parsed.ok ? parsed.tokens[0] : undefined;
  if (name === undefined) return undefined;
  const value = mutation.value[name];
  const line = contentText(result)
    .split('\n')
    .find(
      (l) =>
        l.includes(name) &&
        SET_ASIDE.test(l.replaceAll(name, ' ').replaceAll(typeof value === 'string' ? value : name, ' ')),
    );
  if (line === undefined) return undefined;
  const said = line.replace(/\s+/g, ' ').trim();
  return said.length > 160 ? `${said.slice(0, 159)}…` : said;
}

function acceptedVerdict(
  answer: Exchange,
  result: Record<string, unknown>,
  mutation: InvalidArguments,
): InvalidVerdict {
  const accepted = `${mutation.description}: the call succeeded (${describeAnswer(answer)})`;
  switch (mutation.lenientReading) {
    case 'ignored': {
      const said = saysIgnored(result, mutation);
      return said
        ? {
            verdict: 'lenient',
            reading: 'ignored',
            problem:
              `${mutation.description}: accepted, and the answer says the property was set aside ("${said}") ` +
              `instead of refusing it`,
          }
        : { verdict: 'breach', problem: `${accepted}, and its text does not say the property was ignored` };
    }
    case 'coercion':
      return { verdict: 'lenient', reading: 'coercion', problem: coercedProblem([mutation.description]) };
    case 'null-as-absent':
      return {
        verdict: 'lenient',
        reading: 'null-as-absent',
        problem:
          `${mutation.description}: accepted, as a validator that takes null for "not given" does (an ` +
          `optional property may be left out); the inputSchema does not allow null there`,
      };
    default:
      if (mutation.kind === 'wrong-type')
        return {
          verdict: 'breach',
          problem: `${accepted}; no conversion to the declared type keeps this value's meaning`,
        };
      if (mutation.kind === 'null-value')
        return { verdict: 'breach', problem: `${accepted}; a required property cannot be read as absent` };
      return { verdict: 'breach', problem: accepted };
  }
}

/** What a looser validator that coerces types was seen to accept: each case (a mutation's description), named. */
export function coercedProblem(cases: readonly string[]): string {
  const why = "as a validator that coerces types does (Ajv's coerceTypes, pydantic's lax mode, zod's z.coerce)";
  return cases.length === 1
    ? `${cases[0]!}: accepted, ${why}; the inputSchema does not allow this value`
    : `${cases.length} values of the wrong type were accepted, ${why}: ${cases.join('; ')}. The inputSchema ` +
        `allows none of them`;
}

/**
 * Which coercion a mutation asks for: the property and the JSON type of the value put there (a numeric string and a
 * boolean for the same number are two cases). Other mutations are one case each reading.
 */
export function lenientCase(mutation: InvalidArguments): string {
  if (mutation.lenientReading !== 'coercion') return '';
  const parsed = parsePointer(mutation.path);
  const name = parsed.ok ? parsed.tokens[0] : undefined;
  const value = name === undefined ? undefined : mutation.value[name];
  return `${mutation.path}\u0000${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`;
}

/** The schema-valid call a mutation was made from: its arguments, and its answer (sent only when asked for). */
export interface Control {
  args: Record<string, unknown>;
  answer(): Promise<Exchange | undefined>;
}

/** Whether the control failed the way an invalid call did, with an excerpt of its answer; or why it has no answer. */
type Comparison = { same: boolean; excerpt: string } | { unanswered: string };

/**
 * What a search learns once per failure: the first answer that fails a given way is compared with its own control, and
 * later answers failing the same way (the same signature) take that comparison instead of a control call each.
 */
export type ComparedFailures = Map<string, Promise<Comparison>>;

/**
 * The verdict on the answer to one mutation. A success uses the value unchecked (a breach) unless a looser validator
 * explains it. A failure is a refusal only when the control did not fail the same way: a server whose every call
 * fails ("fetch failed") refuses nothing by failing. The control is asked for only when the answer fails, and not at
 * all when `compared` already holds a comparison for this way of failing.
 */
export async function judgeInvalidAnswer(
  answer: Exchange,
  mutation: InvalidArguments,
  control: Control,
  compared?: ComparedFailures,
): Promise<InvalidVerdict> {
  const result = resultOf(answer.response);
  const error = errorOf(answer.response);
  if (result?.resultType === 'input_required')
    return {
      verdict: 'inconclusive',
      why: `${mutation.description}: the server asked for input (input_required) instead of judging the arguments`,
    };
  if (result && result.isError !== true) return acceptedVerdict(answer, result, mutation);
  if (!result && !error)
    return {
      verdict: 'inconclusive',
      why:
        `${mutation.description}: got ${describeAnswer(answer)}, neither a result nor an error (the wire checks ` +
        `judge it)`,
    };
  const tokens = argumentTokens([control.args, mutation.value]);
  const signature = failureSignature(answer, tokens)!;
  let comparison = compared?.get(signature);
  if (!comparison) {
    comparison = compare(signature, tokens, control);
    compared?.set(signature, comparison);
  }
  const seen = await comparison;
  if ('unanswered' in seen) {
    return {
      verdict: 'inconclusive',
      why:
        `${mutation.description}: ${describeAnswer(answer)}, and the schema-valid call it was made from got no ` +
        `answer to compare with (${seen.unanswered})`,
    };
  }
  if (seen.same)
    return {
      verdict: 'inconclusive',
      why:
        `${mutation.description}: ${describeAnswer(answer)}, and a schema-valid call of the tool fails the same ` +
        `way ("${seen.excerpt}")`,
    };
  return typeof error?.code === 'number' ? { verdict: 'refused', code: error.code } : { verdict: 'refused' };
}

async function compare(signature: string, tokens: readonly string[], control: Control): Promise<Comparison> {
  const valid = await control.answer();
  if (!valid || valid.failure)
    return { unanswered: valid?.failure?.message ?? 'none was sent: the target was gone, or the search out of time' };
  return { same: failureSignature(valid, tokens) === signature, excerpt: excerpt(valid) };
}

function excerpt(e: Exchange): string {
  const error = errorOf(e.response);
  const result = resultOf(e.response);
  const text = error ? String(error.message) : result ? contentText(result) : '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

/**
 * The sentence a lenient reading rests on: an undeclared property reported but not refused departs from how the tools
 * page describes input validation errors; a coerced value, or null taken for absence, from the inputSchema as the
 * definition of the expected parameters.
 */
const lenientSentence = (reading: LenientReading, wire: Revision): SpecSentence =>
  reading === 'ignored' ? INPUT_VALIDATION_ERRORS[wire] : INPUT_SCHEMA_DEFINES;

const LENIENT_EXPECTED: Record<LenientReading, (wire: Revision) => string> = {
  ignored: (wire) =>
    describesIsError(wire)
      ? 'the undeclared property refused with an isError result (input validation errors are reported in tool ' +
        'results with isError: true), or an inputSchema that allows it'
      : 'the undeclared property refused (a JSON-RPC error for invalid arguments, or an isError result for ' +
        'invalid input data), or an inputSchema that allows it',
  coercion: () =>
    'a value of the wrong type refused (isError, or a JSON-RPC error), or an inputSchema that declares the ' +
    'types the tool accepts',
  'null-as-absent': () =>
    'null refused (isError, or a JSON-RPC error), or an inputSchema that allows null for the property',
};

/** A warning for an answer a looser validator explains, resting on a descriptive sentence (never a fail). */
export function lenientOutcome(
  verdict: Extract<InvalidVerdict, { verdict: 'lenient' }>,
  wire: Revision,
  tool: string,
  evidence: Outcome['evidence'],
): Outcome {
  return {
    ...fail(verdict.problem, LENIENT_EXPECTED[verdict.reading](wire), evidence),
    tool,
    sentence: lenientSentence(verdict.reading, wire),
  };
}

/** A tool none of whose answers to invalid arguments was a refusal, and some could not be judged. */
export function inconclusiveOutcome(tool: string, whys: readonly string[], count: number): Outcome {
  const more = count > whys.length ? ` (${count} such answers in all)` : '';
  return {
    ...skip(`not judged: no answer shows whether the tool validates its inputs — ${whys.join('; ')}${more}`),
    tool,
    evidence: [note('inconclusive answers', count)],
  };
}

/** A pass remark: the answers, among those of the tools in the pass, that were not refusals. */
export function notRefusedRemark(lenient: number, inconclusive: number): string {
  const parts = [
    ...(lenient > 0 ? [`${lenient} accepted as a looser validator reads them (warned per tool)`] : []),
    ...(inconclusive > 0
      ? [`${inconclusive} not judged (their schema-valid call failed the same way, or gave nothing to compare with)`]
      : []),
  ];
  return parts.length ? `; not refusals among them: ${parts.join(', ')}` : '';
}

/**
 * How a refusal of schema-invalid arguments by a JSON-RPC error is noted in a pass on a revision that describes isError
 * for it.
 */
function refusalNote(code: number, wire: Revision): string {
  if (code === ERR.invalidParams && wire === LATEST_REVISION)
    return (
      "-32602 (allowed by the schema's InvalidParamsError; the tools page describes isError for input " +
      'validation errors, requirements §6.1)'
    );
  return (
    `${code} (a JSON-RPC error still refuses the input; the tools page describes isError for input validation ` +
    `errors)`
  );
}

/**
 * A pass remark listing the error codes that refused invalid arguments, and how the tools page of the revision sees
 * them.
 */
export function refusalRemark(noted: readonly { where: string; code: number }[], wire: Revision): string {
  if (noted.length === 0) return '';
  const codes = [...new Set(noted.map((n) => n.code))].sort((a, b) => b - a);
  const where = `e.g. ${[...new Set(noted.map((n) => n.where))].slice(0, 4).join(', ')}`;
  if (!describesIsError(wire))
    return (
      `; ${noted.length} answered with a JSON-RPC error (${codes.join(', ')}), as the tools page describes ` +
      `invalid arguments (protocol errors); ${where}`
    );
  return (
    `; ${noted.length} answered with a JSON-RPC error instead of an isError result: ` +
    `${codes.map((c) => refusalNote(c, wire)).join('; ')}; ${where}`
  );
}
