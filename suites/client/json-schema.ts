import { TOOL } from '../../src/client-mode/scenarios.js';
import { evidenceOf, type ClientCheckDefinition } from '../../src/runner/client-check.js';
import { clientCheck, fail, note, pass, sentence, skip } from './kit.js';

const REF = 'basic/index#ref-resolution';

export const NO_NETWORK_REF = clientCheck({
  id: 'jsonschema.ref.no-network',
  covers: ['jsonschema.ref.optin-default-off', 'tools.sec.client-ref-rules'],
  title: 'A $ref to a network URI is never fetched',
  area: 'json-schema',
  scenario: 'ref',
  sentences: [
    sentence(REF, 'Implementations MUST NOT automatically dereference $ref values that resolve to a network URI.', 'MUST NOT'),
    sentence(REF, 'Implementations MAY offer an opt-in mode that fetches non-local $refs but it MUST be disabled by default', 'MUST'),
  ],
  run(ctx) {
    const listed = ctx.requests.some((r) => r.method === 'tools/list');
    if (!listed) return [skip('the client never listed the tools, so it never saw the $refs')];
    const hits = ctx.observed.canaryHits.filter((h) => h.kind === 'network');
    const refTools = [TOOL.refNetwork, TOOL.refRelative];
    if (hits.length === 0) return [pass(`the loopback canary that ${refTools.join(' and ')} name in $refs (absolute, and relative to a network $id) received no request`)];
    return [fail(`the loopback canary named only in $refs received ${hits.length} request(s): ${hits.slice(0, 3).map((h) => h.detail).join('; ')}`, 'no request to a URI a schema names', [note('requests the canary received', hits.slice(0, 10))])];
  },
});

export const UNRESOLVED_REJECT = clientCheck({
  id: 'jsonschema.ref.unresolved-reject',
  title: 'An outputSchema with an unresolved external $ref does not pass results as valid',
  area: 'json-schema',
  scenario: 'ref',
  sentences: [sentence(REF, 'Schemas that fail to validate due to an unresolved external $ref SHOULD be rejected rather than silently treated as permissive.', 'SHOULD')],
  run(ctx) {
    const calls = ctx.calls(TOOL.refNetwork);
    const line = ctx.line(TOOL.refNetwork);
    if (calls.length === 0 && !line) return [skip(`the client did not call ${TOOL.refNetwork}`)];
    if (!line) return [skip(`the driver printed no line for ${TOOL.refNetwork}`)];
    const evidence = [...calls.slice(-1).map((c) => evidenceOf(c.seen)), note('what the driver printed', line)];
    if (line.outcome === 'error') return [pass(`the result of ${TOOL.refNetwork}, whose outputSchema $refs an unreachable network URI, came out as an error`, evidence)];
    return [fail(`the result of ${TOOL.refNetwork}, whose outputSchema $refs a network URI that was not (and must not be) fetched, reached the driver as a valid result`, 'an error: the schema cannot be resolved, so the result cannot be validated', evidence)];
  },
});

export const JSON_SCHEMA_CHECKS: readonly ClientCheckDefinition[] = [NO_NETWORK_REF, UNRESOLVED_REJECT];
