import { type ClientCheckDefinition, evidenceOf } from '../kit/index.js';
import { clientCheck, describeRequest, fail, pass, sentence, skip } from './kit.js';

export const STDIO_DISCOVER_FIRST = clientCheck({
  id: 'version.matrix.stdio-discover-first',
  covers: ['stdio.compat.probe-recommended', 'discover.stdio-probe'],
  title: 'On stdio, server/discover is the first request',
  area: 'discovery',
  scenario: 'meta',
  transport: 'stdio',
  sentences: [
    sentence(
      'basic/versioning#compatibility-matrix',
      'On stdio, clients SHOULD send server/discover first to fail deterministically',
      'SHOULD',
    ),
    sentence(
      'basic/transports/stdio#backward-compatibility',
      'A client that only supports modern versions does not need to probe, but probing is still RECOMMENDED',
      'RECOMMENDED',
    ),
  ],
  run(ctx) {
    // The first request in time, whichever server process it went to (a client may probe on a process of its own).
    const first = ctx.requests[0];
    if (!first) return [skip('the client sent no 2026-07-28 request')];
    if (first.method === 'server/discover')
      return [pass(`the first request was server/discover (${describeRequest(first)})`, [evidenceOf(first.seen)])];
    return [
      fail(
        `the first request was ${describeRequest(first)}; the client sent no server/discover before it`,
        'server/discover before any other request',
        [evidenceOf(first.seen)],
      ),
    ];
  },
});

export const DISCOVERY_CHECKS: readonly ClientCheckDefinition[] = [STDIO_DISCOVER_FIRST];
