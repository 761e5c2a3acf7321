import { TOOL, UNKNOWN_RESULT_TYPE } from '../../src/client-mode/scenarios.js';
import { evidenceOf, type ClientCheckContext, type ClientCheckDefinition } from '../../src/runner/client-check.js';
import type { Outcome } from '../../src/model/check.js';
import { clientCheck, fail, note, pass, sentence, skip } from './kit.js';

/** How the driver reported the call of `tool`: `result` or `error`, with the evidence; a skip when it cannot be told. */
function reported(ctx: ClientCheckContext, tool: string): { outcome: 'result' | 'error'; evidence: Outcome['evidence'] } | Outcome {
  const calls = ctx.calls(tool);
  if (calls.length === 0) return skip(`the client did not call ${tool}`);
  const line = ctx.line(tool);
  if (!line) return skip(`the driver printed no line for ${tool}`);
  return { outcome: line.outcome, evidence: [evidenceOf(calls[calls.length - 1]!.seen), note('what the driver printed', line)] };
}

export const UNKNOWN_RESULT_TYPE_INVALID = clientCheck({
  id: 'base.resulttype.unknown-invalid',
  title: 'A result of an unknown resultType is not taken as a result',
  area: 'results',
  scenario: 'results',
  sentences: [sentence('basic/index#resulttype', 'A resultType of any value unrecognized by the client MUST be considered invalid.', 'MUST')],
  run(ctx) {
    const seen = reported(ctx, TOOL.resultUnknownType);
    if ('status' in seen) return [seen];
    if (seen.outcome === 'error') return [pass(`the result with resultType "${UNKNOWN_RESULT_TYPE}" came out as an error`, seen.evidence)];
    return [fail(`the result with resultType "${UNKNOWN_RESULT_TYPE}" reached the driver as a result`, 'an error: the result is invalid', seen.evidence)];
  },
});

export const OUTPUT_VALIDATION = clientCheck({
  id: 'tools.output.client-validate',
  covers: ['tools.sec.client-validate-results'],
  title: 'structuredContent that breaks the outputSchema is not passed on as valid',
  area: 'results',
  scenario: 'results',
  sentences: [sentence('server/tools#output-schema', 'Clients SHOULD validate structured results against this schema.', 'SHOULD')],
  run(ctx) {
    const seen = reported(ctx, TOOL.structuredMismatch);
    if ('status' in seen) return [seen];
    if (seen.outcome === 'error') return [pass('structuredContent {"temperature":"warm"} against an outputSchema requiring a number came out as an error', seen.evidence)];
    return [fail('structuredContent {"temperature":"warm"}, against an outputSchema requiring a number, reached the driver as a result', 'an error naming the schema violation', seen.evidence)];
  },
});

export const RESULT_CHECKS: readonly ClientCheckDefinition[] = [UNKNOWN_RESULT_TYPE_INVALID, OUTPUT_VALIDATION];
