import { defineCheck } from '../kit/define-check.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type ArgumentVerdict,
  canonicalJson,
  type CheckContext,
  type CheckDefinition,
  compileArgumentSchema,
  describeFormatDependence,
  describeIssues,
  dialectOf,
  type DialectReading,
  ERR,
  errorOf,
  type Exchange,
  type FormatDependence,
  invalidArguments,
  type InvalidArguments,
  isObject,
  isUndecided,
  namesDefaultDialect,
  type Outcome,
  resultOf,
  sampleArguments,
  type SpecSentence,
  type SpecSentences,
  undeclaredDialectOn,
  type Revision,
} from '../kit/index.js';
import { listedTools, type ListedTool } from '../kit/listed-tools.js';
import { fail, note, pass, skip, timedOutReason } from '../kit/outcome.js';
import { perTool } from '../kit/per-tool.js';
import {
  describeAnswer,
  inconclusiveOutcome,
  judgeInvalidAnswer,
  lenientOutcome,
  notRefusedRemark,
  refusalExpected,
  refusalRemark,
  VALIDATE_INPUTS_SENTENCES,
  type InvalidVerdict,
} from './invalid-answer.js';
import { toolErrorsInResult } from './error-sentences.js';

interface Call {
  tool: ListedTool;
  args: Record<string, unknown>;
  exchange: Exchange;
}

interface ValidCalls {
  calls: Call[];
  /** Tools not called, and why. */
  notCalled: { tool: string; why: string }[];
}

const MAX_INVALID_PER_TOOL = 2;

type CallSlot = { call: Call } | { notCalled: { tool: string; why: string } };

async function oneValidCall(ctx: CheckContext, tool: ListedTool & { tool: { name: string } }): Promise<CallSlot> {
  if (!ctx.mayCall(tool.tool)) return { notCalled: { tool: tool.label, why: ctx.notCalledReason(tool.tool) } };
  const timedOut = ctx.timedOutCall(tool.tool.name);
  if (timedOut) return { notCalled: { tool: tool.label, why: timedOutReason(timedOut) } };
  const sample = sampleArguments(tool.tool.inputSchema);
  if (!sample.ok)
    return { notCalled: { tool: tool.label, why: `no valid arguments could be generated: ${sample.reason}` } };
  const exchange = await ctx.callTool(tool.tool.name, sample.value);
  return { call: { tool, args: sample.value, exchange } };
}

/** One call per callable tool with small schema-valid arguments, done once and judged by several checks. */
export function validCalls(ctx: CheckContext): Promise<ValidCalls> {
  return ctx.memo('valid-calls', async () => {
    const tools = (await listedTools(ctx)).filter(
      (t): t is ListedTool & { tool: { name: string } } => typeof t.tool.name === 'string',
    );
    const slots = await perTool(
      ctx,
      tools.map((t) => t.tool.name),
      (index) => oneValidCall(ctx, tools[index]!),
    );
    return {
      calls: slots.flatMap((slot) => ('call' in slot ? [slot.call] : [])),
      notCalled: slots.flatMap((slot) => ('notCalled' in slot ? [slot.notCalled] : [])),
    };
  });
}

/**
 * Compiles the input schemas of the tools validCalls will call (a pure, cached computation that sends nothing)
 * while the main phase mostly waits on the target, one schema per turn of the event loop.
 */
function compileCallableSchemasEarly(ctx: CheckContext): void {
  ctx
    .memo('callable-schemas-compiled', async () => {
      for (const tool of await listedTools(ctx)) {
        if (typeof tool.tool.name !== 'string' || !ctx.mayCall(tool.tool)) continue;
        await nextTurn();
        compileArgumentSchema(tool.tool.inputSchema);
      }
    })
    .catch(() => undefined);
}

function noCalls(ctx: CheckContext, calls: ValidCalls): Outcome[] {
  const why = calls.notCalled.length
    ? `; not called: ${calls.notCalled
        .slice(0, 5)
        .map((n) => `${n.tool} (${n.why})`)
        .join(', ')}`
    : '';
  return [skip(`no tool was called (${ctx.callPolicy})${why}`)];
}

/** The initialize revisions' tools page, § Error Handling (the same words in each). */
const TOOL_EXECUTION_ERRORS: SpecSentence = {
  ref: 'server/tools#error-handling',
  text: 'Tool Execution Errors: Reported in tool results with isError: true',
  keyword: 'descriptive',
};

/** The sentences behind tools.err.tool-errors-in-result and its property-based counterpart. */
export const TOOL_ERRORS_IN_RESULT_SENTENCES: SpecSentences = {
  '2026-07-28': [
    toolErrorsInResult('2026-07-28'),
    {
      ref: 'server/tools#error-handling',
      text:
        'Tool Execution Errors contain actionable feedback that language models can use to self-correct and ' +
        'retry with adjusted parameters: … They are reported in tool results with isError: true',
      keyword: 'descriptive',
    },
  ],
  '2025-11-25': [toolErrorsInResult('2025-11-25'), TOOL_EXECUTION_ERRORS],
  '2025-06-18': [toolErrorsInResult('2025-06-18'), TOOL_EXECUTION_ERRORS],
  '2025-03-26': [toolErrorsInResult('2025-03-26'), TOOL_EXECUTION_ERRORS],
  '2024-11-05': [toolErrorsInResult('2024-11-05'), TOOL_EXECUTION_ERRORS],
};

const OUTPUT_CONFORMS: SpecSentence = {
  ref: 'server/tools#output-schema',
  text: 'Servers MUST provide structured results that conform to this schema.',
  keyword: 'MUST',
};

/**
 * What a result that conforms only because `format` is an annotation rests on (descriptive, the same in each revision):
 * it conforms, but a client validating strictly, formats asserted, would reject it.
 */
const STRICT_VALIDATION: SpecSentence = {
  ref: 'server/tools#output-schema',
  text:
    'Providing an output schema helps clients and LLMs understand and properly handle structured tool outputs ' +
    'by: … Enabling strict schema validation of responses',
  keyword: 'descriptive',
};

/**
 * Before 2025-11-25 the tools page only names the outputSchema a JSON Schema, and no page names a default dialect: one
 * without `$schema` may be read in any (descriptive).
 */
const OUTPUT_IS_JSON_SCHEMA: SpecSentence = {
  ref: 'server/tools#tool',
  text: 'outputSchema: Optional JSON Schema defining expected output structure',
  keyword: 'descriptive',
};

/**
 * The sentences behind tools.output.conform and its property-based counterpart, the same in every revision that has
 * them: outputSchema and structuredContent arrived in 2025-06-18.
 */
export const OUTPUT_CONFORMS_SENTENCES: SpecSentences = {
  '2026-07-28': [OUTPUT_CONFORMS, STRICT_VALIDATION],
  '2025-11-25': [OUTPUT_CONFORMS, STRICT_VALIDATION],
  '2025-06-18': [OUTPUT_CONFORMS, STRICT_VALIDATION, OUTPUT_IS_JSON_SCHEMA],
};

/**
 * The warning for structuredContent that an outputSchema without `$schema` accepts in one dialect and rejects in
 * another, on a revision that names no default dialect: no failure, since either reading is the schema's; both are
 * given.
 */
export function dialectSplitOutcome(readings: readonly DialectReading[], exchange: Exchange, wire: Revision): Outcome {
  const accepting = readings.filter((r) => r.valid).map((r) => r.dialect);
  const rejecting = readings.filter((r) => !r.valid).map((r) => `${r.dialect} (${describeIssues(r.issues, 3)})`);
  return {
    status: 'warn',
    message:
      `whether structuredContent conforms to the outputSchema hinges on the JSON Schema dialect: it conforms ` +
      `read as ${accepting.join(' or ')}, and not read as ${rejecting.join(' or ')}. Not a failure: the ` +
      `outputSchema declares no $schema, and ${wire} names no default dialect, so each reading is the schema's`,
    expected:
      'structuredContent that conforms in every dialect the outputSchema may be read in, or an outputSchema ' +
      'that names its dialect in $schema',
    evidence: [exchange],
    sentence: OUTPUT_IS_JSON_SCHEMA,
  };
}

/**
 * The warning for a valid verdict that hinges on the dialect or on `format` alone; undefined when it hinges on nothing.
 */
export function hingeOutcome(
  outputSchema: unknown,
  structuredContent: unknown,
  verdict: ArgumentVerdict,
  exchange: Exchange,
  wire: Revision,
): Outcome | undefined {
  if (!verdict.valid) return undefined;
  if (verdict.readings) return dialectSplitOutcome(verdict.readings, exchange, wire);
  return verdict.format
    ? formatOnlyOutcome(outputSchema, structuredContent, verdict.format, exchange, wire)
    : undefined;
}

/**
 * The warning for structuredContent whose conformance hinges on `format` alone: it names the format, the value and why
 * it is no failure (an annotation by default), resting on the descriptive sentence above.
 */
function formatOnlyOutcome(
  outputSchema: unknown,
  structuredContent: unknown,
  dependence: FormatDependence,
  exchange: Exchange,
  wire: Revision,
): Outcome {
  const { dialect, declared } = dialectOf(outputSchema);
  const { finding, why } = describeFormatDependence(
    dependence,
    structuredContent,
    dialect,
    declared === undefined && !namesDefaultDialect(wire),
  );
  return {
    status: 'warn',
    message:
      String(
        dependence.rejectedUnder === 'assertion'
          ? 'structuredContent conforms to the outputSchema, but'
          : 'whether structuredContent conforms to the outputSchema hinges on `format`:',
      ) + ` ${finding}. Not a failure: ${why}`,
    expected:
      'structuredContent that conforms whether or not a validator asserts `format` (for a date-time, one with ' +
      'its time-zone offset)',
    evidence: [exchange],
    sentence: STRICT_VALIDATION,
  };
}

const TEXT_MIRROR: SpecSentence = {
  ref: 'server/tools#structured-content',
  text:
    'For backwards compatibility, a tool that returns structured content SHOULD also return the serialized JSON ' +
    'in a TextContent block.',
  keyword: 'SHOULD',
};

/** JSON-RPC errors that do not blame the arguments: a missing client capability is a legitimate answer. */
const LEGITIMATE_ERRORS: ReadonlySet<number> = new Set([ERR.missingCapability]);

export const validArgumentsAccepted: CheckDefinition = defineCheck({
  id: 'tools.err.tool-errors-in-result',
  title: 'A call with schema-valid arguments is answered with a result (tool errors as isError), not a JSON-RPC error',
  area: 'tool-calls',
  sentences: TOOL_ERRORS_IN_RESULT_SENTENCES,
  needs: ['live', 'tool-call'],
  phase: 'serial',
  prepare: compileCallableSchemasEarly,
  async run(ctx) {
    const calls = await validCalls(ctx);
    if (calls.calls.length === 0) return noCalls(ctx, calls);
    const slow = calls.calls.filter((c) => c.exchange.failure);
    const slowOutcomes = slow.map((c) => ({
      ...skip(
        `the call did not complete (${c.exchange.failure!.message}); it was cancelled — a long-running tool, ` +
          `or raise --timeout`,
      ),
      tool: c.tool.label,
    }));
    const rejected = calls.calls.filter((c) => {
      const code = errorOf(c.exchange.response)?.code;
      return code !== undefined && !LEGITIMATE_ERRORS.has(code as number);
    });
    if (rejected.length === 0) {
      return [
        pass(`${calls.calls.length - slow.length} tool(s) answered schema-valid arguments with a result`),
        ...slowOutcomes,
      ];
    }
    return [
      ...slowOutcomes,
      ...rejected.map((c) => ({
        ...fail(
          `schema-valid arguments ${JSON.stringify(c.args).slice(0, 200)} got ${describeAnswer(c.exchange)}`,
          'a result (isError: true for errors that originate from the tool); -32602 claims the arguments break ' +
            'the published inputSchema',
          [c.exchange],
        ),
        tool: c.tool.label,
      })),
    ];
  },
});

function completeResults(calls: ValidCalls): (Call & { result: Record<string, unknown> })[] {
  return calls.calls.flatMap((c) => {
    const result = resultOf(c.exchange.response);
    return result && result.resultType !== 'input_required' && result.isError !== true ? [{ ...c, result }] : [];
  });
}

export const outputConforms: CheckDefinition = defineCheck({
  id: 'tools.output.conform',
  title: 'A successful result of a tool with an outputSchema carries structuredContent valid against it',
  area: 'tool-calls',
  sentences: OUTPUT_CONFORMS_SENTENCES,
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const calls = await validCalls(ctx);
    if (calls.calls.length === 0) return noCalls(ctx, calls);
    const judged = completeResults(calls).filter((c) => isObject(c.tool.tool.outputSchema));
    if (judged.length === 0) return [skip('no called tool with an outputSchema returned a successful result')];
    const outcomes: Outcome[] = [];
    for (const c of judged) {
      const compiled = compileArgumentSchema(c.tool.tool.outputSchema, undeclaredDialectOn(ctx.revision));
      if (!compiled.ok) {
        outcomes.push({
          ...skip(`outputSchema cannot be used for validation: ${compiled.reason}`),
          tool: c.tool.label,
        });
        continue;
      }
      if (!('structuredContent' in c.result)) {
        outcomes.push({
          ...fail('the result has no structuredContent', 'structuredContent valid against the outputSchema', [
            c.exchange,
          ]),
          tool: c.tool.label,
        });
        continue;
      }
      const verdict = compiled.validator.validate(c.result.structuredContent);
      if (isUndecided(verdict)) {
        outcomes.push({ ...skip(`structuredContent not judged: ${verdict.issues[0]!.message}`), tool: c.tool.label });
      } else if (!verdict.valid) {
        outcomes.push({
          ...fail(
            `structuredContent breaks the outputSchema: ${describeIssues(verdict.issues)}`,
            'structuredContent valid against the outputSchema',
            [c.exchange],
          ),
          tool: c.tool.label,
        });
      } else {
        const hinge = hingeOutcome(
          c.tool.tool.outputSchema,
          c.result.structuredContent,
          verdict,
          c.exchange,
          ctx.revision,
        );
        if (hinge) outcomes.push({ ...hinge, tool: c.tool.label });
      }
    }
    const fine = judged.length - outcomes.length;
    return fine > 0 ? [pass(`${fine} result(s) conform to their outputSchema`), ...outcomes] : outcomes;
  },
});

export const textMirror: CheckDefinition = defineCheck({
  id: 'tools.result.structured-text-mirror',
  title: 'A result with structuredContent also carries its serialized JSON in a text block',
  area: 'tool-calls',
  // structuredContent arrived in 2025-06-18.
  sentences: { '2026-07-28': [TEXT_MIRROR], '2025-11-25': [TEXT_MIRROR], '2025-06-18': [TEXT_MIRROR] },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const calls = await validCalls(ctx);
    if (calls.calls.length === 0) return noCalls(ctx, calls);
    const structured = calls.calls.flatMap((c) => {
      const result = resultOf(c.exchange.response);
      return result && 'structuredContent' in result ? [{ ...c, result }] : [];
    });
    if (structured.length === 0) return [skip('no result carried structuredContent')];
    const missing = structured.filter((c) => !mirrored(c.result));
    if (missing.length === 0)
      return [pass(`${structured.length} structured result(s) mirror their JSON in a text block`)];
    return missing.map((c) => ({
      ...fail(
        'no text block holds the JSON of structuredContent',
        'a TextContent block whose text parses to the same value (for clients that ignore structuredContent)',
        [c.exchange],
      ),
      tool: c.tool.label,
    }));
  },
});

function mirrored(result: Record<string, unknown>): boolean {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const target = canonicalJson(result.structuredContent);
  return blocks.some((b) => {
    if (!isObject(b) || b.type !== 'text' || typeof b.text !== 'string') return false;
    try {
      return canonicalJson(JSON.parse(b.text)) === target;
    } catch {
      return false;
    }
  });
}

export interface InvalidProbe {
  call: Call;
  mutation: InvalidArguments;
  exchange: Exchange;
}

/** Up to two mutations of each tool's scripted sample, sent once and shared (the property checks read them too). */
function invalidProbes(ctx: CheckContext): Promise<{ probes: InvalidProbe[]; probed: number }> {
  return ctx.memo('invalid-probes', async () => {
    const calls = (await validCalls(ctx)).calls;
    const perCall = await perTool(
      ctx,
      calls.map((c) => c.tool.tool.name as string),
      async (index) => {
        const c = calls[index]!;
        const mutations = invalidArguments(c.tool.tool.inputSchema, c.args, undeclaredDialectOn(ctx.revision));
        const picked = mutations
          .filter((m, i) => mutations.findIndex((o) => o.kind === m.kind) === i)
          .slice(0, MAX_INVALID_PER_TOOL);
        const probes: InvalidProbe[] = [];
        let probed = 0;
        for (const mutation of picked) {
          probed += 1;
          if (c.exchange.failure || ctx.timedOutCall(c.tool.tool.name as string)) break;
          const exchange = await ctx.callTool(c.tool.tool.name as string, mutation.value);
          if (!exchange.failure) probes.push({ call: c, mutation, exchange });
        }
        return { probes, probed };
      },
    );
    return { probes: perCall.flatMap((p) => p.probes), probed: perCall.reduce((sum, p) => sum + p.probed, 0) };
  });
}

/** The probes with their verdicts, judged once against the scripted sample each mutation was made from. */
export function judgedProbes(
  ctx: CheckContext,
): Promise<{ probes: (InvalidProbe & { verdict: InvalidVerdict })[]; probed: number }> {
  return ctx.memo('invalid-probes-judged', async () => {
    const { probes, probed } = await invalidProbes(ctx);
    const judged = await Promise.all(
      probes.map(async (p) => ({
        ...p,
        verdict: await judgeInvalidAnswer(p.exchange, p.mutation, {
          args: p.call.args,
          answer: async () => p.call.exchange,
        }),
      })),
    );
    return { probes: judged, probed };
  });
}

export const invalidArgumentsRejected: CheckDefinition = defineCheck({
  id: 'tools.err.execution-errors',
  covers: ['tools.sec.validate-inputs'],
  title:
    'Arguments that break the inputSchema are refused (an isError result, or a JSON-RPC error), never a silent success',
  area: 'tool-calls',
  sentences: VALIDATE_INPUTS_SENTENCES,
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const calls = await validCalls(ctx);
    if (calls.calls.length === 0) return noCalls(ctx, calls);
    const { probes, probed } = await judgedProbes(ctx);
    if (probed === 0) return [skip('no called tool has a schema that invalid arguments can be derived from')];
    const outcomes: Outcome[] = [];
    const noted: { where: string; code: number }[] = [];
    for (const p of probes) {
      const v = p.verdict;
      const tool = p.call.tool.label;
      if (v.verdict === 'breach')
        outcomes.push({ ...fail(v.problem, refusalExpected(ctx.revision), [p.exchange]), tool });
      else if (v.verdict === 'lenient') outcomes.push(lenientOutcome(v, ctx.revision, tool, [p.exchange]));
      else if (v.verdict === 'refused' && v.code !== undefined)
        noted.push({ where: `${tool}: ${v.code} (${p.mutation.kind})`, code: v.code });
    }
    // A tool that refused some invalid arguments is in the pass; one none of whose answers could be judged is a skip
    // saying why.
    const refusing = new Set(probes.filter((p) => p.verdict.verdict === 'refused').map((p) => p.call.tool.label));
    const judged = new Set(probes.filter((p) => p.verdict.verdict !== 'inconclusive').map((p) => p.call.tool.label));
    const unjudged = new Map<string, string[]>();
    for (const p of probes) {
      if (p.verdict.verdict === 'inconclusive' && !judged.has(p.call.tool.label))
        unjudged.set(p.call.tool.label, [...(unjudged.get(p.call.tool.label) ?? []), p.verdict.why]);
    }
    outcomes.push(...[...unjudged].map(([tool, whys]) => inconclusiveOutcome(tool, whys, whys.length)));
    const inPass = probes.filter((p) => refusing.has(p.call.tool.label));
    const count = (verdict: InvalidVerdict['verdict']) => inPass.filter((p) => p.verdict.verdict === verdict).length;
    if (inPass.length === 0) return outcomes;
    const remark = `${notRefusedRemark(count('lenient'), count('inconclusive'))}${refusalRemark(noted, ctx.revision)}`;
    return [
      pass(`${count('refused')} invalid-argument call(s) were refused${remark}`, [
        note('invalid-argument probes', probed),
      ]),
      ...outcomes,
    ];
  },
});

export const TOOL_RESULT_CHECKS = [
  validArgumentsAccepted,
  outputConforms,
  textMirror,
  invalidArgumentsRejected,
] as const;
