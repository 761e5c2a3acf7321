import {
  type ClientCheckContext,
  type ClientCheckDefinition,
  type Outcome,
  TOOL,
  UNKNOWN_DIALECT,
} from '../kit/index.js';
import { clientCheck, judgeDriverLine, sentence, skip } from './kit.js';

const IMPLEMENTATION = 'basic/index#implementation-requirements';

/**
 * A client need not validate structuredContent (tools.output.client-validate is a SHOULD): the dialect it validates by
 * shows only when it does. structured_mismatch, whose structuredContent breaks a plain outputSchema, is the control.
 */
function unlessItValidates(ctx: ClientCheckContext): Outcome[] | undefined {
  const control = ctx.line(TOOL.structuredMismatch);
  if (control?.outcome === 'error') return undefined;
  return [
    skip(
      control
        ? `the client does not show that it validates structuredContent: ${TOOL.structuredMismatch}, whose ` +
            `structuredContent breaks its outputSchema, came out as a result (tools.output.client-validate judges ` +
            `that), so the dialect it validates by cannot be seen`
        : `the driver printed no line for ${TOOL.structuredMismatch}, the control that shows whether the client ` +
            `validates structuredContent at all`,
    ),
  ];
}

export const VALIDATE_BY_DIALECT = clientCheck({
  id: 'jsonschema.impl.validate-by-dialect',
  covers: ['jsonschema.impl.default-2020-12', 'jsonschema.dialect.support-2020-12', 'tools.schema.default-dialect'],
  title: 'A schema without $schema is validated as JSON Schema 2020-12',
  area: 'json-schema',
  scenario: 'results',
  sentences: [
    sentence(
      IMPLEMENTATION,
      'Clients and servers MUST validate schemas according to their declared or default dialect.',
      'MUST',
    ),
    sentence(
      IMPLEMENTATION,
      'Clients and servers MUST support JSON Schema 2020-12 for schemas without an explicit $schema field',
      'MUST',
    ),
    sentence('basic/index#schema-dialect', 'Implementations MUST support at least 2020-12', 'MUST'),
    sentence('server/tools#tool', 'Defaults to 2020-12 if no $schema field is present', 'descriptive'),
  ],
  run: (ctx) =>
    unlessItValidates(ctx) ??
    judgeDriverLine(ctx, TOOL.dialectDefault, 'error', {
      afterCall: false,
      passed:
        `the result of ${TOOL.dialectDefault}, whose structuredContent breaks the prefixItems of an ` +
        `outputSchema without $schema, came out as an error, as 2020-12 requires`,
      failed:
        `the result of ${TOOL.dialectDefault} reached the driver as a valid result, although its ` +
        `structuredContent {"pair": ["a", "b"]} breaks prefixItems (the second item must be an integer) under ` +
        `2020-12, the default dialect; the client validates structuredContent (it rejected ` +
        `${TOOL.structuredMismatch}), so it validated this one by another dialect (draft-07 ignores prefixItems)`,
      expected: 'an error: under 2020-12, the dialect of a schema without $schema, the structuredContent is invalid',
    }),
});

export const UNSUPPORTED_DIALECT = clientCheck({
  id: 'jsonschema.impl.unsupported-dialect',
  title: 'An outputSchema of an unsupported dialect gives an error, not a result validated by another dialect',
  area: 'json-schema',
  scenario: 'results',
  sentences: [
    sentence(
      IMPLEMENTATION,
      'They MUST handle unsupported dialects gracefully by returning an appropriate error indicating the ' +
        'dialect is not supported.',
      'MUST',
    ),
  ],
  // Refusing the tool before calling it (an error line, no tools/call) is such an error too.
  run: (ctx) =>
    unlessItValidates(ctx) ??
    judgeDriverLine(ctx, TOOL.dialectUnknown, 'error', {
      afterCall: false,
      passed:
        `the result of ${TOOL.dialectUnknown}, whose outputSchema declares $schema ${UNKNOWN_DIALECT}, came ` +
        `out as an error`,
      failed:
        `the result of ${TOOL.dialectUnknown}, whose outputSchema declares $schema ${UNKNOWN_DIALECT} (a ` +
        `dialect no client supports), reached the driver as a valid result: the client validates ` +
        `structuredContent (it rejected ${TOOL.structuredMismatch}), so it validated this one by a dialect the ` +
        `schema does not declare, or not at all`,
      expected: 'an error saying the dialect is not supported',
    }),
});

export const DIALECT_CHECKS: readonly ClientCheckDefinition[] = [VALIDATE_BY_DIALECT, UNSUPPORTED_DIALECT];
