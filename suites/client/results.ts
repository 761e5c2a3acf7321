import {
  type ClientCheckContext,
  type ClientCheckDefinition,
  CONTROL_ERROR_CODE,
  errorOf,
  evidenceOf,
  FORMER_HEADER_MISMATCH_CODE,
  type SeenRequest,
  TOOL,
  UNKNOWN_RESULT_TYPE,
} from '../kit/index.js';
import { onRevisions } from '../kit/same-sentences.js';
import { clientCheck, describeRequest, fail, judgeDriverLine, pass, sentence, skip } from './kit.js';

export const UNKNOWN_RESULT_TYPE_INVALID = clientCheck({
  id: 'base.resulttype.unknown-invalid',
  title: 'A result of an unknown resultType is not taken as a result',
  area: 'results',
  scenario: 'results',
  sentences: [
    sentence(
      'basic/index#resulttype',
      'A resultType of any value unrecognized by the client MUST be considered invalid.',
      'MUST',
    ),
  ],
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
  sentences: [
    sentence('server/tools#output-schema', 'Clients SHOULD validate structured results against this schema.', 'SHOULD'),
  ],
  earlier: onRevisions(
    ['2025-11-25', '2025-06-18'],
    sentence('server/tools#output-schema', 'Clients SHOULD validate structured results against this schema.', 'SHOULD'),
  ),
  run: (ctx) =>
    judgeDriverLine(ctx, TOOL.structuredMismatch, 'error', {
      afterCall: true,
      passed:
        'structuredContent {"temperature":"warm"} against an outputSchema requiring a number came out as an error',
      failed:
        'structuredContent {"temperature":"warm"}, against an outputSchema requiring a number, reached the ' +
        'driver as a result',
      expected: 'an error naming the schema violation',
    }),
});

/**
 * A call answered with `code`, and what followed it: a tools/list, then the same call again (header-mismatch recovery).
 */
interface Recovery {
  answered: SeenRequest;
  relist?: SeenRequest;
  retry?: SeenRequest;
}

function recoveryAfter(ctx: ClientCheckContext, tool: string, code: number): Recovery | undefined {
  const answered = ctx.calls(tool).find((r) => errorOf(r.seen.reply?.body)?.code === code);
  if (!answered) return undefined;
  const later = ctx.requests.filter((r) => r.seen.seq > answered.seen.seq);
  const retry = later.find((r) => r.method === 'tools/call' && r.params.name === tool);
  const relist = retry ? later.find((r) => r.method === 'tools/list' && r.seen.seq < retry.seen.seq) : undefined;
  return { answered, ...(relist ? { relist } : {}), ...(retry ? { retry } : {}) };
}

const recovered = (r: Recovery | undefined): boolean => r?.relist !== undefined;
const evidenceOfRecovery = (r: Recovery) =>
  [r.answered, r.relist, r.retry].flatMap((s) => (s ? [evidenceOf(s.seen)] : []));

export const FORMER_CODE_NO_MEANING = clientCheck({
  id: 'err.legacy.no-meaning',
  title: 'A legacy error code (-32001) sets off no recovery that another legacy code (-32003) does not',
  area: 'results',
  scenario: 'results',
  sentences: [
    sentence(
      'basic/index#error-codes',
      'Apart from -32002 (see below), receivers MUST NOT assume any specific meaning for these codes.',
      'MUST NOT',
    ),
  ],
  run(ctx) {
    // HeaderMismatch recovery, as early 2026-07-28 betas numbered it: list the tools again, then retry the call. The
    // control answers the same way (status, message) with -32003, so only the code tells the two apart.
    const former = recoveryAfter(ctx, TOOL.formerHeaderMismatchCode, FORMER_HEADER_MISMATCH_CODE);
    if (!former) return [skip(`the client did not call ${TOOL.formerHeaderMismatchCode}`)];
    if (!recovered(former)) {
      return [
        pass(
          `-32001 was not taken for HeaderMismatch: no re-listing followed by a retry` +
            `${former.retry ? ' (the call was retried without re-listing, which assumes no meaning of the code)' : ''}`,
          evidenceOfRecovery(former),
        ),
      ];
    }
    const control = recoveryAfter(ctx, TOOL.controlErrorCode, CONTROL_ERROR_CODE);
    const recovering =
      `after -32001 to ${describeRequest(former.answered)}, the client listed the tools again and ` +
      `retried (${describeRequest(former.retry!)})`;
    if (!control) {
      return [
        skip(
          `${recovering}, the recovery for HeaderMismatch; whether it gave -32001 that meaning cannot be told: ` +
            `it did not call ${TOOL.controlErrorCode}, which answers the same with -32003`,
        ),
      ];
    }
    const evidence = [...evidenceOfRecovery(former), ...evidenceOfRecovery(control)];
    if (recovered(control)) {
      return [
        pass(
          `${recovering}, and did the same after -32003 to ${describeRequest(control.answered)}: it recovers ` +
            `from these errors alike, which assumes no meaning of -32001`,
          evidence,
        ),
      ];
    }
    return [
      fail(
        `${recovering}: the recovery for HeaderMismatch, which -32001 was before the renumbering to -32020. ` +
          `After -32003 to ${describeRequest(control.answered)}, with the same status and message, it did not`,
        'the same handling as for -32003: in the legacy sub-range the code alone means nothing',
        evidence,
      ),
    ];
  },
});

export const RESULT_CHECKS: readonly ClientCheckDefinition[] = [
  UNKNOWN_RESULT_TYPE_INVALID,
  OUTPUT_VALIDATION,
  FORMER_CODE_NO_MEANING,
];
