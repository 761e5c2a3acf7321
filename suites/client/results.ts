import { TOOL, UNKNOWN_RESULT_TYPE } from '../../src/client-mode/scenarios.js';
import type { ClientCheckDefinition } from '../../src/runner/client-check.js';
import { clientCheck, judgeDriverLine, sentence } from './kit.js';

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

export const RESULT_CHECKS: readonly ClientCheckDefinition[] = [UNKNOWN_RESULT_TYPE_INVALID, OUTPUT_VALIDATION];
