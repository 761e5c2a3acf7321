import { defineCheck } from '../kit/define-check.js';
import {
  type Arguments,
  type ArgumentSource,
  type ArgumentVerdict,
  canonicalJson,
  type CheckContext,
  type CheckDefinition,
  compileArgumentSchema,
  describeIssues,
  ERR,
  errorOf,
  type Exchange,
  type InvalidCase,
  invalidCases,
  isObject,
  type LenientReading,
  type Outcome,
  pickInvalidArguments,
  resultOf,
  TargetGoneError,
  type UndeclaredDialect,
  undeclaredDialectOn,
  ValidArguments,
  type Revision,
} from '../kit/index.js';
import { note } from '../kit/outcome.js';
import { searchTools, type ToolCall } from './property-search.js';
import type { ListedTool } from '../kit/listed-tools.js';
import {
  hingeOutcome,
  judgedProbes,
  OUTPUT_CONFORMS_SENTENCES,
  TOOL_ERRORS_IN_RESULT_SENTENCES,
  validCalls,
} from '../tool-calls/tool-results.js';
import {
  coercedProblem,
  inconclusiveOutcome,
  judgeInvalidAnswer,
  lenientCase,
  lenientOutcome,
  type ComparedFailures,
  type Control,
  notRefusedRemark,
  refusalExpected,
  refusalRemark,
  VALIDATE_INPUTS_SENTENCES,
  type InvalidVerdict,
} from '../tool-calls/invalid-answer.js';

/*
 * The property-based counterparts of the scripted call checks (suites/tool-results.ts): those judge one small sample
 * per tool; these judge --runs generated cases per tool and shrink what fails. Every generated exchange is recorded,
 * so the wire checks (base.jsonrpc, schema.result.valid and the specific ones) judge each response too; a response
 * that is not a JSON-RPC message is left to them here, so that no issue is reported twice.
 */

/**
 * Transport failures that mean the target did not answer the call (a dropped connection, an HTTP error). Timeouts stop
 * the search as a skip (a slow tool is not a broken one; see property-search.ts), and garbage is the wire checks' to
 * judge.
 */
function unanswered(exchange: Exchange): string | undefined {
  const failure = exchange.failure;
  if (!failure || failure.kind === 'malformed' || failure.kind === 'wrong-id' || failure.kind === 'timeout')
    return undefined;
  return `no answer: ${failure.message}`;
}

const errorText = (error: Record<string, unknown>) =>
  `JSON-RPC error ${String(error.code)} "${String(error.message).slice(0, 120)}"`;

/**
 * Protocol-level rejections (header mismatch, missing capability, unsupported version): their own checks judge them; a
 * missing capability is a legitimate answer to any call.
 */
const PROTOCOL_LEVEL: ReadonlySet<number> = new Set([
  ERR.headerMismatch,
  ERR.missingCapability,
  ERR.unsupportedVersion,
]);

/** The valid-argument checks judge the same generated calls: one call per case serves both. */
const VALID_CASES = 'valid-arguments';

/** The scripted sample's exchange for this tool, when the scripted probe called it. */
async function scriptedSample(ctx: CheckContext, t: ListedTool): Promise<Exchange | undefined> {
  return (await validCalls(ctx)).calls.find((c) => c.tool.label === t.label)?.exchange;
}

function judgeValid(exchange: Exchange): string | undefined {
  const silent = unanswered(exchange);
  if (silent) return silent;
  const error = errorOf(exchange.response);
  if (!error || PROTOCOL_LEVEL.has(error.code as number)) return undefined;
  if (error.code === ERR.invalidParams) return `valid arguments were rejected with ${errorText(error)}`;
  return `valid arguments got ${errorText(error)} instead of a result`;
}

export const validCasesAnswered: CheckDefinition = defineCheck({
  id: 'tools.err.tool-errors-in-result.property',
  covers: ['tools.err.tool-errors-in-result'],
  title:
    'Generated schema-valid arguments always get a result (complete or input_required), not a JSON-RPC error ' +
    'or a crash',
  area: 'property',
  sentences: TOOL_ERRORS_IN_RESULT_SENTENCES,
  needs: ['live', 'tool-call'],
  phase: 'search',
  run: (ctx) =>
    searchTools<Arguments>(ctx, {
      id: validCasesAnswered.id,
      expected:
        'a result (resultType complete, isError for errors that originate from the tool, or input_required), ' +
        'not -32602 for arguments the inputSchema accepts, -32603 or a crash',
      passed: 'answered with a result',
      validOnly: true,
      caseStream: VALID_CASES,
      reportedBy: async (ctx, t) => {
        const code = errorOf((await scriptedSample(ctx, t))?.response)?.code;
        return code !== undefined && code !== ERR.missingCapability
          ? `tools.err.tool-errors-in-result already reports its scripted sample (error ${String(code)})`
          : undefined;
      },
      property: (_t, source) => ({
        arbitrary: new ValidArguments(source),
        argumentsOf: (args) => args,
        judge: judgeValid,
      }),
    }),
});

/**
 * A result whose structuredContent conforms only because `format` is an annotation, or only in some of the dialects an
 * outputSchema without `$schema` may be read in: warned about, not a failing case.
 */
type Hinged = (structuredContent: unknown, verdict: ArgumentVerdict, exchange: Exchange) => void;

function judgeOutput(validate: (value: unknown) => ArgumentVerdict, hinged?: Hinged) {
  return (exchange: Exchange): string | undefined => {
    const result = resultOf(exchange.response);
    if (!result || result.resultType === 'input_required' || result.isError === true) return undefined;
    if (!('structuredContent' in result)) return 'a successful result has no structuredContent';
    const verdict = validate(result.structuredContent);
    if (verdict.valid && (verdict.format || verdict.readings)) hinged?.(result.structuredContent, verdict, exchange);
    return verdict.valid
      ? undefined
      : `structuredContent breaks the outputSchema: ${describeIssues(verdict.issues, 3)}`;
  };
}

async function scriptedSampleHinges(ctx: CheckContext, t: ListedTool): Promise<boolean> {
  const result = resultOf((await scriptedSample(ctx, t))?.response);
  const compiled = compileArgumentSchema(t.tool.outputSchema, undeclaredDialectOn(ctx.revision));
  if (
    !result ||
    !compiled.ok ||
    result.isError === true ||
    result.resultType === 'input_required' ||
    !('structuredContent' in result)
  )
    return false;
  const verdict = compiled.validator.validate(result.structuredContent);
  return verdict.format !== undefined || verdict.readings !== undefined;
}

/**
 * Results whose conformance hinges on `format` or the dialect alone: the first of each tool is warned about after the
 * search, unless the tool also failed, or tools.output.conform already warned about its scripted sample.
 */
class HingeWarnings {
  private readonly first = new Map<string, { t: ListedTool; outcome: Outcome }>();

  clear(): void {
    this.first.clear();
  }

  recorder(t: ListedTool, wire: Revision): Hinged {
    return (structuredContent, verdict, exchange) => {
      if (this.first.has(t.label)) return;
      const outcome = hingeOutcome(t.tool.outputSchema, structuredContent, verdict, exchange, wire);
      if (outcome) this.first.set(t.label, { t, outcome: { ...outcome, tool: t.label } });
    };
  }

  async outcomes(ctx: CheckContext, reported: readonly Outcome[]): Promise<Outcome[]> {
    const failed = new Set(reported.filter((o) => o.status === 'fail' || o.status === 'error').map((o) => o.tool));
    const outcomes: Outcome[] = [];
    for (const { t, outcome } of this.first.values()) {
      if (!failed.has(t.label) && !(await scriptedSampleHinges(ctx, t))) outcomes.push(outcome);
    }
    return outcomes;
  }
}

function outputCheck(): CheckDefinition {
  const warnings = new HingeWarnings();
  const check: CheckDefinition = defineCheck({
    id: 'tools.output.conform.property',
    covers: ['tools.output.conform'],
    title:
      'For generated schema-valid arguments, every successful result carries structuredContent valid against ' +
      'the outputSchema',
    area: 'property',
    sentences: OUTPUT_CONFORMS_SENTENCES,
    needs: ['live', 'tool-call'],
    phase: 'search',
    run: async (ctx) => {
      warnings.clear();
      const outcomes = await searchTools<Arguments>(ctx, {
        id: check.id,
        expected: 'structuredContent valid against the outputSchema in every result that is complete and not isError',
        passed: 'had conforming structuredContent (or were tool errors)',
        validOnly: true,
        caseStream: VALID_CASES,
        reportedBy: async (ctx, t) => {
          const sample = await scriptedSample(ctx, t);
          const compiled = compileArgumentSchema(t.tool.outputSchema, undeclaredDialectOn(ctx.revision));
          const problem =
            sample && compiled.ok ? judgeOutput((v) => compiled.validator.validate(v))(sample) : undefined;
          return problem ? `tools.output.conform already reports its scripted sample (${problem})` : undefined;
        },
        applies: { to: (t) => isObject(t.tool.outputSchema), none: 'no tool declares an outputSchema' },
        property: (t, source) => {
          const compiled = compileArgumentSchema(t.tool.outputSchema, undeclaredDialectOn(ctx.revision));
          if (!compiled.ok) return `the outputSchema cannot be used for validation: ${compiled.reason}`;
          return {
            arbitrary: new ValidArguments(source),
            argumentsOf: (args) => args,
            judge: judgeOutput((v) => compiled.validator.validate(v), warnings.recorder(t, ctx.revision)),
          };
        },
      });
      return [...outcomes, ...(await warnings.outcomes(ctx, outcomes))];
    },
  });
  return check;
}

export const generatedOutputConforms = outputCheck();

const breakable: Record<UndeclaredDialect, WeakMap<ArgumentSource, boolean>> = {
  default: new WeakMap(),
  'any-dialect': new WeakMap(),
};

/**
 * Whether some generated value (or the prepared one) has a mutation the schema rejects (in every reading, with
 * `any-dialect`).
 */
function hasBreakableConstraint(source: ArgumentSource, undeclared: UndeclaredDialect): boolean {
  let known = breakable[undeclared].get(source);
  if (known === undefined) {
    known = findBreakableConstraint(source, undeclared);
    breakable[undeclared].set(source, known);
  }
  return known;
}

function findBreakableConstraint(source: ArgumentSource, undeclared: UndeclaredDialect): boolean {
  const breakable = (value: Arguments | undefined) =>
    value !== undefined && pickInvalidArguments(source.schema, value, 0, undeclared) !== undefined;
  if (breakable(source.fallback)) return true;
  for (let i = 0; i < 16; i += 1) if (breakable(source.valid(i + 1, i % 2 === 0))) return true;
  return false;
}

interface LenientSeen {
  verdict: Extract<InvalidVerdict, { verdict: 'lenient' }>;
  description: string;
  args: unknown;
  key: string;
  exchange: Exchange;
}

/** Cases of one lenient reading quoted with their arguments as evidence; all of them are named in the message. */
const QUOTED_LENIENT_CASES = 4;

/** One warning per lenient reading of a tool: a coercion names every case seen, not only the smallest. */
function lenientOutcomes(tally: InvalidTally, wire: Revision, tool: string): Outcome[] {
  return [...tally.lenient.values()].map((cases) => {
    const seen = [...cases.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, kept]) => kept);
    const first = seen[0]!;
    const verdict =
      seen.length === 1 ? first.verdict : { ...first.verdict, problem: coercedProblem(seen.map((s) => s.description)) };
    return lenientOutcome(
      verdict,
      wire,
      tool,
      seen.slice(0, QUOTED_LENIENT_CASES).flatMap((s) => [note('arguments sent', s.args), s.exchange]),
    );
  });
}

/**
 * What the search of one tool saw besides failures: refusals, the smallest case of each lenient reading, the first
 * reasons (in text order) of its inconclusive cases. Cases are judged in whatever order their answers come, so what is
 * kept does not depend on it.
 */
interface InvalidTally {
  refused: number;
  lenientCount: number;
  /** By reading, then by case (each coercion seen: lenientCase), the smallest arguments of each. */
  lenient: Map<LenientReading, Map<string, LenientSeen>>;
  inconclusive: string[];
  inconclusiveCount: number;
}

/** Inconclusive cases quoted in a skip; the rest are counted. */
const QUOTED_INCONCLUSIVE = 2;

const smaller = (a: string, b: string) => a.length < b.length || (a.length === b.length && a < b);

function invalidCheck(): CheckDefinition {
  const noted: { where: string; code: number }[] = [];
  const tallies = new Map<string, InvalidTally>();
  const property = (undeclared: UndeclaredDialect) => (t: ListedTool, source: ArgumentSource, call: ToolCall) => {
    if (!hasBreakableConstraint(source, undeclared)) {
      return (
        'the inputSchema has no constraint that a targeted mutation can break (no required or typed property, ' +
        'and undeclared properties are allowed)'
      );
    }
    const tally: InvalidTally = {
      refused: 0,
      lenientCount: 0,
      lenient: new Map(),
      inconclusive: [],
      inconclusiveCount: 0,
    };
    tallies.set(t.label, tally);
    const compared: ComparedFailures = new Map();
    // The control is the valid case the mutation was made from, a call shared with the valid-argument checks.
    const control = (valid: Arguments): Control => ({
      args: valid,
      answer: async () => {
        try {
          return await call(valid, VALID_CASES);
        } catch (error) {
          if (error instanceof TargetGoneError) return undefined;
          throw error;
        }
      },
    });
    const judge = async (exchange: Exchange, c: InvalidCase | undefined): Promise<string | undefined> => {
      const silent = unanswered(exchange);
      if (silent) return silent;
      const verdict = await judgeInvalidAnswer(exchange, c!.mutation, control(c!.valid), compared);
      switch (verdict.verdict) {
        case 'breach':
          return verdict.problem;
        case 'lenient': {
          tally.lenientCount += 1;
          const key = canonicalJson(c!.mutation.value);
          const cases = tally.lenient.get(verdict.reading) ?? new Map<string, LenientSeen>();
          tally.lenient.set(verdict.reading, cases);
          const which = lenientCase(c!.mutation);
          const kept = cases.get(which);
          if (!kept || smaller(key, kept.key))
            cases.set(which, { verdict, description: c!.mutation.description, args: c!.mutation.value, key, exchange });
          return undefined;
        }
        case 'inconclusive':
          tally.inconclusiveCount += 1;
          if (!tally.inconclusive.includes(verdict.why))
            tally.inconclusive = [...tally.inconclusive, verdict.why].sort().slice(0, QUOTED_INCONCLUSIVE);
          return undefined;
        case 'refused':
          tally.refused += 1;
          if (verdict.code !== undefined && noted.length < 1000)
            noted.push({ where: c!.mutation.kind, code: verdict.code });
          return undefined;
      }
    };
    return {
      arbitrary: invalidCases(source, undeclared),
      argumentsOf: (c: InvalidCase | undefined) => c?.mutation.value,
      judge,
    };
  };
  const settle =
    (ctx: CheckContext) =>
    (t: ListedTool): { outcomes: Outcome[]; counted: boolean } => {
      const tally = tallies.get(t.label);
      if (!tally) return { outcomes: [], counted: true };
      const outcomes = lenientOutcomes(tally, ctx.revision, t.label);
      if (tally.refused === 0 && tally.lenientCount === 0 && tally.inconclusiveCount > 0)
        outcomes.push(inconclusiveOutcome(t.label, tally.inconclusive, tally.inconclusiveCount));
      return { outcomes, counted: tally.refused > 0 };
    };
  /** The cases of the tools in the pass that were not refusals, so that the pass claims no more than it saw. */
  const remarks = (ctx: CheckContext) => () => {
    const counted = [...tallies.values()].filter((tally) => tally.refused > 0);
    const lenient = counted.reduce((sum, tally) => sum + tally.lenientCount, 0);
    const inconclusive = counted.reduce((sum, tally) => sum + tally.inconclusiveCount, 0);
    return `${notRefusedRemark(lenient, inconclusive)}${refusalRemark(noted, ctx.revision)}`;
  };
  const check: CheckDefinition = defineCheck({
    id: 'tools.err.execution-errors.property',
    covers: ['tools.err.execution-errors', 'tools.sec.validate-inputs'],
    title:
      'Generated arguments that break the inputSchema are refused (an isError result, or a JSON-RPC error), ' +
      'never a silent success or a crash',
    area: 'property',
    sentences: VALIDATE_INPUTS_SENTENCES,
    needs: ['live', 'tool-call'],
    phase: 'search',
    run: (ctx) => {
      noted.length = 0;
      tallies.clear();
      return searchTools<InvalidCase | undefined>(ctx, {
        id: check.id,
        expected: refusalExpected(ctx.revision),
        passed: 'were refused',
        reportedBy: async (ctx, t) => {
          const failed = (await judgedProbes(ctx)).probes.find(
            (p) => p.call.tool.label === t.label && p.verdict.verdict === 'breach',
          );
          return failed
            ? `tools.err.execution-errors already reports a mutation of its scripted sample (` +
                `${failed.mutation.description})`
            : undefined;
        },
        property: property(undeclaredDialectOn(ctx.revision)),
        settle: settle(ctx),
        describe: (c) =>
          c
            ? [
                note(`how it was made invalid (${c.mutation.kind})`, {
                  mutation: c.mutation.description,
                  from: c.valid,
                }),
              ]
            : [],
        remarks: remarks(ctx),
      });
    },
  });
  return check;
}

export const invalidCasesRefused = invalidCheck();

export const PROPERTY_CHECKS = [validCasesAnswered, generatedOutputConforms, invalidCasesRefused] as const;
