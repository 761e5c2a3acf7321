import { LEGACY_ERROR_CODE, TOOL, UNKNOWN_RESULT_TYPE } from '../../src/client-mode/scenarios.js';
import { errorOf } from '../../src/jsonrpc.js';
import { evidenceOf, type ClientCheckDefinition } from '../../src/runner/client-check.js';
import { clientCheck, describeRequest, fail, judgeDriverLine, pass, sentence, skip } from './kit.js';

export const UNKNOWN_RESULT_TYPE_INVALID = clientCheck({
  id: 'base.resulttype.unknown-invalid',
  title: 'A result of an unknown resultType is not taken as a result',
  area: 'results',
  scenario: 'results',
  sentences: [sentence('basic/index#resulttype', 'A resultType of any value unrecognized by the client MUST be considered invalid.', 'MUST')],
  run: (ctx) =>
    judgeDriverLine(ctx, TOOL.resultUnknownType, 'error', {
      afterCall: true,
      passed: `the result with resultType "${UNKNOWN_RESULT_TYPE}" came out as an error`,
      failed: `the result with resultType "${UNKNOWN_RESULT_TYPE}" reached the driver as a result`,
      expected: 'an error: the result is invalid',
    }),
});

export const OUTPUT_VALIDATION = clientCheck({
  id: 'tools.output.client-validate',
  covers: ['tools.sec.client-validate-results'],
  title: 'structuredContent that breaks the outputSchema is not passed on as valid',
  area: 'results',
  scenario: 'results',
  sentences: [sentence('server/tools#output-schema', 'Clients SHOULD validate structured results against this schema.', 'SHOULD')],
  run: (ctx) =>
    judgeDriverLine(ctx, TOOL.structuredMismatch, 'error', {
      afterCall: true,
      passed: 'structuredContent {"temperature":"warm"} against an outputSchema requiring a number came out as an error',
      failed: 'structuredContent {"temperature":"warm"}, against an outputSchema requiring a number, reached the driver as a result',
      expected: 'an error naming the schema violation',
    }),
});

export const LEGACY_CODE_NO_MEANING = clientCheck({
  id: 'err.legacy.no-meaning',
  title: 'A legacy error code (-32001) does not set off header-mismatch recovery',
  area: 'results',
  scenario: 'results',
  sentences: [sentence('basic/index#error-codes', 'Apart from -32002 (see below), receivers MUST NOT assume any specific meaning for these codes.', 'MUST NOT')],
  run(ctx) {
    const answered = ctx.calls(TOOL.legacyErrorCode).find((r) => errorOf(r.seen.reply?.body)?.code === LEGACY_ERROR_CODE);
    if (!answered) return [skip(`the client did not call ${TOOL.legacyErrorCode}`)];
    // HeaderMismatch recovery, as early 2026-07-28 betas numbered it: list the tools again, then retry the call.
    const later = ctx.requests.filter((r) => r.seen.seq > answered.seen.seq);
    const retry = later.find((r) => r.method === 'tools/call' && r.params.name === TOOL.legacyErrorCode);
    const relist = retry ? later.find((r) => r.method === 'tools/list' && r.seen.seq < retry.seen.seq) : undefined;
    const evidence = [answered, ...(relist ? [relist] : []), ...(retry ? [retry] : [])].map((r) => evidenceOf(r.seen));
    if (retry && relist) {
      return [fail(`after -32001 to ${describeRequest(answered)}, the client listed the tools again and retried (${describeRequest(retry)}): the recovery for HeaderMismatch, which -32001 was before the renumbering to -32020`, 'the error taken as an implementation-defined failure: no header-mismatch recovery', evidence)];
    }
    return [pass(`-32001 was not taken for HeaderMismatch: no re-listing followed by a retry${retry ? ` (the call was retried without re-listing, which assumes no meaning of the code)` : ''}`, evidence)];
  },
});

export const RESULT_CHECKS: readonly ClientCheckDefinition[] = [UNKNOWN_RESULT_TYPE_INVALID, OUTPUT_VALIDATION, LEGACY_CODE_NO_MEANING];
