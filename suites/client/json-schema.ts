import { type ClientCheckDefinition, TOOL } from '../kit/index.js';
import { clientCheck, fail, judgeDriverLine, note, pass, sentence, skip } from './kit.js';

const REF = 'basic/index#ref-resolution';

export const NO_NETWORK_REF = clientCheck({
  id: 'jsonschema.ref.no-network',
  covers: ['jsonschema.ref.optin-default-off', 'tools.sec.client-ref-rules'],
  title: 'A $ref to a network URI is never fetched',
  area: 'json-schema',
  scenario: 'ref',
  sentences: [
    sentence(
      REF,
      'Implementations MUST NOT automatically dereference $ref values that resolve to a network URI.',
      'MUST NOT',
    ),
    sentence(
      REF,
      'Implementations MAY offer an opt-in mode that fetches non-local $refs but it MUST be disabled by default',
      'MUST',
    ),
  ],
  run(ctx) {
    const listed = ctx.requests.some((r) => r.method === 'tools/list');
    if (!listed) return [skip('the client never listed the tools, so it never saw the $refs')];
    const hits = ctx.observed.canaryHits.filter((h) => h.kind === 'network');
    const refTools = [TOOL.refNetwork, TOOL.refRelative];
    if (hits.length === 0)
      return [
        pass(
          `the loopback canary that ${refTools.join(' and ')} name in $refs (absolute, and relative to a ` +
            `network $id) received no request`,
        ),
      ];
    return [
      fail(
        `the loopback canary named only in $refs received ${hits.length} request(s): ${hits
          .slice(0, 3)
          .map((h) => h.detail)
          .join('; ')}`,
        'no request to a URI a schema names',
        [note('requests the canary received', hits.slice(0, 10))],
      ),
    ];
  },
});

export const UNRESOLVED_REJECT = clientCheck({
  id: 'jsonschema.ref.unresolved-reject',
  title: 'An outputSchema with an unresolved external $ref does not pass results as valid',
  area: 'json-schema',
  scenario: 'ref',
  sentences: [
    sentence(
      REF,
      'Schemas that fail to validate due to an unresolved external $ref SHOULD be rejected rather than ' +
        'silently treated as permissive.',
      'SHOULD',
    ),
  ],
  // Refusing the schema before calling (no tools/call sent) is a rejection too.
  run: (ctx) =>
    judgeDriverLine(ctx, TOOL.refNetwork, 'error', {
      afterCall: false,
      passed:
        `the result of ${TOOL.refNetwork}, whose outputSchema $refs an unreachable network URI, came out as ` +
        `an error`,
      failed:
        `the result of ${TOOL.refNetwork}, whose outputSchema $refs a network URI that was not (and must not ` +
        `be) fetched, reached the driver as a valid result`,
      expected: 'an error: the schema cannot be resolved, so the result cannot be validated',
    }),
});

export const JSON_SCHEMA_CHECKS: readonly ClientCheckDefinition[] = [NO_NETWORK_REF, UNRESOLVED_REJECT];
