import {
  type ClientCheckDefinition,
  isObject,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  type SeenRequest,
} from '../kit/index.js';
import { clientCheck, describeRequest, judgeRequests, sentence } from './kit.js';

const metaOf = (r: SeenRequest) => (isObject(r.params._meta) ? r.params._meta : undefined);

export const META_REQUIRED = clientCheck({
  id: 'tools.req.meta-required',
  covers: ['meta.req.required'],
  title: 'Every request carries _meta protocolVersion (a string) and clientCapabilities (an object)',
  area: 'request-meta',
  scenario: 'meta',
  sentences: [
    sentence('server/tools', 'Every request MUST include the required _meta fields', 'MUST'),
    sentence('basic/index#_meta', 'fields marked as required MUST be included on every request.', 'MUST'),
  ],
  run(ctx) {
    const requests = ctx.requests;
    const offenders = requests.flatMap((request) => {
      const meta = metaOf(request);
      const missing = [
        ...(typeof meta?.[META_PROTOCOL_VERSION] === 'string' ? [] : [`${META_PROTOCOL_VERSION} (a string)`]),
        ...(isObject(meta?.[META_CLIENT_CAPABILITIES]) ? [] : [`${META_CLIENT_CAPABILITIES} (an object)`]),
      ];
      return missing.length === 0
        ? []
        : [{ request, problem: `${describeRequest(request)} lacks ${missing.join(' and ')}` }];
    });
    return judgeRequests(
      requests.length,
      'the client sent no 2026-07-28 request',
      offenders,
      `all ${requests.length} requests carry both required _meta fields (tools/list pages, tools/call and ` +
        `retries included)`,
      `params._meta with "${META_PROTOCOL_VERSION}" and "${META_CLIENT_CAPABILITIES}" on every request`,
    );
  },
});

export const CLIENT_INFO = clientCheck({
  id: 'meta.req.clientinfo',
  title: 'Every request carries _meta clientInfo (name and version)',
  area: 'request-meta',
  scenario: 'meta',
  sentences: [
    sentence(
      'basic/index#_meta',
      'Clients SHOULD include io.modelcontextprotocol/clientInfo on every request unless specifically ' +
        'configured not to do so.',
      'SHOULD',
    ),
  ],
  run(ctx) {
    const requests = ctx.requests;
    const offenders = requests.flatMap((request) => {
      const info = metaOf(request)?.[META_CLIENT_INFO];
      return isObject(info) && typeof info.name === 'string' && typeof info.version === 'string'
        ? []
        : [{ request, problem: `${describeRequest(request)} has no ${META_CLIENT_INFO} with a name and version` }];
    });
    return judgeRequests(
      requests.length,
      'the client sent no 2026-07-28 request',
      offenders,
      `all ${requests.length} requests carry ${META_CLIENT_INFO}`,
      `"${META_CLIENT_INFO}": {"name": …, "version": …} in every request's _meta`,
    );
  },
});

export const REQUEST_META_CHECKS: readonly ClientCheckDefinition[] = [META_REQUIRED, CLIENT_INFO];
