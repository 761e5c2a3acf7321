import { setImmediate as nextTurn } from 'node:timers/promises';
import { canonicalJson } from '../../src/canonical-json.js';
import { errorOf, isObject, resultOf } from '../../src/jsonrpc.js';
import type { CheckContext } from '../../src/runner/context.js';
import { describeIssues } from '../../src/runner/result-schemas.js';
import type { CheckDefinition } from '../../src/runner/types.js';
import type { Outcome, SpecSentence, SpecSentences } from '../../src/model/check.js';
import { WIRES } from '../../src/model/wire.js';
import { compileArgumentSchema, describeFormatDependence, invalidArguments, isUndecided, sampleArguments, type FormatDependence } from '../../src/schema/arguments/index.js';
import { dialectOf } from '../../src/schema/tool-schema/index.js';
import type { Exchange } from '../../src/model/exchange.js';
import { listedTools, type ListedTool } from '../kit/listed-tools.js';
import { fail, note, pass, skip, timedOutReason } from '../kit/outcome.js';
import { perTool } from '../kit/per-tool.js';
import { ERR } from '../../src/protocol/constants.js';

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
  if (!sample.ok) return { notCalled: { tool: tool.label, why: `no valid arguments could be generated: ${sample.reason}` } };
  const exchange = await ctx.callTool(tool.tool.name, sample.value);
  return { call: { tool, args: sample.value, exchange } };
}

/** One call per callable tool with small schema-valid arguments, done once and judged by several checks. */
export function validCalls(ctx: CheckContext): Promise<ValidCalls> {
  return ctx.memo('valid-calls', async () => {
    const tools = (await listedTools(ctx)).filter((t): t is ListedTool & { tool: { name: string } } => typeof t.tool.name === 'string');
    const slots = await perTool(ctx, tools.map((t) => t.tool.name), (index) => oneValidCall(ctx, tools[index]!));
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
  const why = calls.notCalled.length ? `; not called: ${calls.notCalled.slice(0, 5).map((n) => `${n.tool} (${n.why})`).join(', ')}` : '';
  return [skip(`no tool was called (${ctx.callPolicy})${why}`)];
}

const describeAnswer = (e: Exchange) => {
  const error = errorOf(e.response);
  if (error) return `error ${String(error.code)} "${String(error.message).slice(0, 120)}"`;
  const result = resultOf(e.response);
  if (result) return result.isError === true ? 'an isError result' : `a ${String(result.resultType ?? 'complete')} result`;
  return e.failure?.message ?? 'no answer';
};

/** schema.json (both wires): the CallToolResult.isError description, whose SHOULD is in capitals. */
const TOOL_ERRORS_IN_RESULT: SpecSentence = {
  ref: 'schema.json#/$defs/CallToolResult/properties/isError/description',
  text: 'Any errors that originate from the tool SHOULD be reported inside the result object, with isError set to true, _not_ as an MCP protocol-level error response.',
  keyword: 'SHOULD',
};

/** The sentences behind tools.err.tool-errors-in-result and its property-based counterpart. */
export const TOOL_ERRORS_IN_RESULT_SENTENCES: SpecSentences = {
  '2026-07-28': [
    TOOL_ERRORS_IN_RESULT,
    {
      ref: 'server/tools#error-handling',
      text: 'Tool Execution Errors contain actionable feedback that language models can use to self-correct and retry with adjusted parameters: … They are reported in tool results with isError: true',
      keyword: 'descriptive',
    },
  ],
  '2025-11-25': [TOOL_ERRORS_IN_RESULT, { ref: 'server/tools#error-handling', text: 'Tool Execution Errors: Reported in tool results with isError: true', keyword: 'descriptive' }],
};

const OUTPUT_CONFORMS: SpecSentence = { ref: 'server/tools#output-schema', text: 'Servers MUST provide structured results that conform to this schema.', keyword: 'MUST' };

/**
 * What a result that conforms only because `format` is an annotation rests on (descriptive, the same on both wires):
 * it conforms, but a client validating strictly, formats asserted, would reject it.
 */
const STRICT_VALIDATION: SpecSentence = {
  ref: 'server/tools#output-schema',
  text: 'Providing an output schema helps clients and LLMs understand and properly handle structured tool outputs by: … Enabling strict schema validation of responses',
  keyword: 'descriptive',
};

/** The sentences behind tools.output.conform and its property-based counterpart (the same on both wires). */
export const OUTPUT_CONFORMS_SENTENCES: SpecSentences = { '2026-07-28': [OUTPUT_CONFORMS, STRICT_VALIDATION], '2025-11-25': [OUTPUT_CONFORMS, STRICT_VALIDATION] };

/**
 * The warning for structuredContent whose conformance hinges on `format` alone: it names the format, the value and why
 * it is no failure (an annotation by default), resting on the descriptive sentence above.
 */
export function formatOnlyOutcome(outputSchema: unknown, structuredContent: unknown, dependence: FormatDependence, exchange: Exchange): Outcome {
  const { finding, why } = describeFormatDependence(dependence, structuredContent, dialectOf(outputSchema).dialect);
  return {
    status: 'warn',
    message: `${dependence.rejectedUnder === 'assertion' ? 'structuredContent conforms to the outputSchema, but' : 'whether structuredContent conforms to the outputSchema hinges on `format`:'} ${finding}. Not a failure: ${why}`,
    expected: 'structuredContent that conforms whether or not a validator asserts `format` (for a date-time, one with its time-zone offset)',
    evidence: [exchange],
    sentence: STRICT_VALIDATION,
  };
}

const VALIDATE_INPUTS: SpecSentence = { ref: 'server/tools#security-considerations', text: 'Servers MUST: Validate all tool inputs', keyword: 'MUST' };

/** The sentences behind tools.err.execution-errors and its property-based counterpart. */
export const VALIDATE_INPUTS_SENTENCES: SpecSentences = {
  '2026-07-28': [
    VALIDATE_INPUTS,
    {
      ref: 'server/tools#error-handling',
      text: 'Tool Execution Errors contain actionable feedback … Input validation errors (e.g., date in wrong format, value out of range) … They are reported in tool results with isError: true',
      keyword: 'descriptive',
    },
  ],
  '2025-11-25': [
    VALIDATE_INPUTS,
    {
      ref: 'server/tools#error-handling',
      text: 'Tool Execution Errors: Reported in tool results with isError: true: … Input validation errors (e.g., date in wrong format, value out of range)',
      keyword: 'descriptive',
    },
  ],
};

const TEXT_MIRROR: SpecSentence = {
  ref: 'server/tools#structured-content',
  text: 'For backwards compatibility, a tool that returns structured content SHOULD also return the serialized JSON in a TextContent block.',
  keyword: 'SHOULD',
};

/** JSON-RPC errors that do not blame the arguments: a missing client capability is a legitimate answer. */
const LEGITIMATE_ERRORS: ReadonlySet<number> = new Set([ERR.missingCapability]);

export const validArgumentsAccepted: CheckDefinition = {
  id: 'tools.err.tool-errors-in-result',
  keyword: 'SHOULD',
  title: 'A call with schema-valid arguments is answered with a result (tool errors as isError), not a JSON-RPC error',
  specRef: 'schema.json#/$defs/CallToolResult/properties/isError/description',
  area: 'tool-calls',
  wires: WIRES,
  sentences: TOOL_ERRORS_IN_RESULT_SENTENCES,
  needs: ['live', 'tool-call'],
  phase: 'serial',
  prepare: compileCallableSchemasEarly,
  async run(ctx) {
    const calls = await validCalls(ctx);
    if (calls.calls.length === 0) return noCalls(ctx, calls);
    const slow = calls.calls.filter((c) => c.exchange.failure);
    const slowOutcomes = slow.map((c) => ({
      ...skip(`the call did not complete (${c.exchange.failure!.message}); it was cancelled — a long-running tool, or raise --timeout`),
      tool: c.tool.label,
    }));
    const rejected = calls.calls.filter((c) => {
      const code = errorOf(c.exchange.response)?.code;
      return code !== undefined && !LEGITIMATE_ERRORS.has(code as number);
    });
    if (rejected.length === 0) {
      return [pass(`${calls.calls.length - slow.length} tool(s) answered schema-valid arguments with a result`), ...slowOutcomes];
    }
    return [...slowOutcomes, ...rejected.map((c) => ({
      ...fail(
        `schema-valid arguments ${JSON.stringify(c.args).slice(0, 200)} got ${describeAnswer(c.exchange)}`,
        'a result (isError: true for errors that originate from the tool); -32602 claims the arguments break the published inputSchema',
        [c.exchange],
      ),
      tool: c.tool.label,
    }))];
  },
};

function completeResults(calls: ValidCalls): (Call & { result: Record<string, unknown> })[] {
  return calls.calls.flatMap((c) => {
    const result = resultOf(c.exchange.response);
    return result && result.resultType !== 'input_required' && result.isError !== true ? [{ ...c, result }] : [];
  });
}

export const outputConforms: CheckDefinition = {
  id: 'tools.output.conform',
  keyword: 'MUST',
  title: 'A successful result of a tool with an outputSchema carries structuredContent valid against it',
  specRef: 'server/tools#output-schema',
  area: 'tool-calls',
  wires: WIRES,
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
      const compiled = compileArgumentSchema(c.tool.tool.outputSchema);
      if (!compiled.ok) {
        outcomes.push({ ...skip(`outputSchema cannot be used for validation: ${compiled.reason}`), tool: c.tool.label });
        continue;
      }
      if (!('structuredContent' in c.result)) {
        outcomes.push({ ...fail('the result has no structuredContent', 'structuredContent valid against the outputSchema', [c.exchange]), tool: c.tool.label });
        continue;
      }
      const verdict = compiled.validator.validate(c.result.structuredContent);
      if (isUndecided(verdict)) {
        outcomes.push({ ...skip(`structuredContent not judged: ${verdict.issues[0]!.message}`), tool: c.tool.label });
      } else if (!verdict.valid) {
        outcomes.push({
          ...fail(`structuredContent breaks the outputSchema: ${describeIssues(verdict.issues)}`, 'structuredContent valid against the outputSchema', [c.exchange]),
          tool: c.tool.label,
        });
      } else if (verdict.format) {
        outcomes.push({ ...formatOnlyOutcome(c.tool.tool.outputSchema, c.result.structuredContent, verdict.format, c.exchange), tool: c.tool.label });
      }
    }
    const fine = judged.length - outcomes.length;
    return fine > 0 ? [pass(`${fine} result(s) conform to their outputSchema`), ...outcomes] : outcomes;
  },
};

export const textMirror: CheckDefinition = {
  id: 'tools.result.structured-text-mirror',
  keyword: 'SHOULD',
  title: 'A result with structuredContent also carries its serialized JSON in a text block',
  specRef: 'server/tools#structured-content',
  area: 'tool-calls',
  wires: WIRES,
  sentences: { '2026-07-28': [TEXT_MIRROR], '2025-11-25': [TEXT_MIRROR] },
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
    if (missing.length === 0) return [pass(`${structured.length} structured result(s) mirror their JSON in a text block`)];
    return missing.map((c) => ({
      ...fail('no text block holds the JSON of structuredContent', 'a TextContent block whose text parses to the same value (for clients that ignore structuredContent)', [c.exchange]),
      tool: c.tool.label,
    }));
  },
};

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


/**
 * What breaks "Servers MUST: Validate all tool inputs" in the answer to schema-invalid arguments: a silent success. Any
 * refusal (an isError result, a JSON-RPC error of any code) shows the input was validated: no sentence ranks one error
 * code above another for it. A call that was never answered is the target's failure, reported as such.
 */
export function invalidAnswerProblem(exchange: Exchange): string | undefined {
  const result = resultOf(exchange.response);
  if (result && result.isError !== true && result.resultType !== 'input_required') return `the call succeeded (${describeAnswer(exchange)})`;
  if (!result && errorOf(exchange.response) === undefined) return `got ${describeAnswer(exchange)}`;
  return undefined;
}

/** How a refusal of schema-invalid arguments is noted in a pass: the error code, when it was not an isError result. */
export function refusalNote(code: unknown): string | undefined {
  if (code === ERR.invalidParams) return "-32602 (allowed by the schema's InvalidParamsError; the tools page describes isError for input validation errors, requirements §6.1)";
  if (typeof code === 'number') return `${code} (a JSON-RPC error still refuses the input; the tools page describes isError for input validation errors)`;
  return undefined;
}

/** A pass remark listing the error codes that refused invalid arguments instead of an isError result. */
export function refusalRemark(noted: readonly { where: string; code: number }[]): string {
  if (noted.length === 0) return '';
  const codes = [...new Set(noted.map((n) => n.code))].sort((a, b) => b - a);
  const explained = codes.map((c) => refusalNote(c)).join('; ');
  return `; ${noted.length} answered with a JSON-RPC error instead of an isError result: ${explained}; e.g. ${[...new Set(noted.map((n) => n.where))].slice(0, 4).join(', ')}`;
}

export interface InvalidProbe {
  call: Call;
  description: string;
  kind: string;
  exchange: Exchange;
}

/** Up to two mutations of each tool's scripted sample, sent once and shared (the property checks read them too). */
export function invalidProbes(ctx: CheckContext): Promise<{ probes: InvalidProbe[]; probed: number }> {
  return ctx.memo('invalid-probes', async () => {
    const calls = (await validCalls(ctx)).calls;
    const perCall = await perTool(ctx, calls.map((c) => c.tool.tool.name as string), async (index) => {
      const c = calls[index]!;
      const mutations = invalidArguments(c.tool.tool.inputSchema, c.args);
      const picked = mutations.filter((m, i) => mutations.findIndex((o) => o.kind === m.kind) === i).slice(0, MAX_INVALID_PER_TOOL);
      const probes: InvalidProbe[] = [];
      let probed = 0;
      for (const m of picked) {
        probed += 1;
        if (c.exchange.failure || ctx.timedOutCall(c.tool.tool.name as string)) break;
        const exchange = await ctx.callTool(c.tool.tool.name as string, m.value);
        if (!exchange.failure) probes.push({ call: c, description: m.description, kind: m.kind, exchange });
      }
      return { probes, probed };
    });
    return { probes: perCall.flatMap((p) => p.probes), probed: perCall.reduce((sum, p) => sum + p.probed, 0) };
  });
}

export const invalidArgumentsRejected: CheckDefinition = {
  id: 'tools.err.execution-errors',
  covers: ['tools.sec.validate-inputs'],
  keyword: 'MUST',
  title: 'Arguments that break the inputSchema are refused (an isError result, or a JSON-RPC error), never a silent success',
  specRef: 'server/tools#security-considerations',
  area: 'tool-calls',
  wires: WIRES,
  sentences: VALIDATE_INPUTS_SENTENCES,
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    const calls = await validCalls(ctx);
    if (calls.calls.length === 0) return noCalls(ctx, calls);
    const { probes, probed } = await invalidProbes(ctx);
    const outcomes: Outcome[] = [];
    const noted: { where: string; code: number }[] = [];
    for (const p of probes) {
      const problem = invalidAnswerProblem(p.exchange);
      const code = errorOf(p.exchange.response)?.code;
      if (problem) {
        outcomes.push({
          ...fail(`${p.description}: ${problem}`, 'the input refused: a result with isError: true (as the tools page describes), or a JSON-RPC error; servers MUST validate all tool inputs', [p.exchange]),
          tool: p.call.tool.label,
        });
      } else if (typeof code === 'number') {
        noted.push({ where: `${p.call.tool.label}: ${code} (${p.kind})`, code });
      }
    }
    if (probed === 0) return [skip('no called tool has a schema that invalid arguments can be derived from')];
    if (outcomes.length > 0) return outcomes;
    return [pass(`${probed} invalid-argument call(s) were refused${refusalRemark(noted)}`, [note('invalid-argument probes', probed)])];
  },
};

export const TOOL_RESULT_CHECKS = [validArgumentsAccepted, outputConforms, textMirror, invalidArgumentsRejected] as const;
