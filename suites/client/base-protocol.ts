import {
  type ClientCheckDefinition,
  evidenceOf,
  extensionIdIssues,
  isObject,
  META_CLIENT_CAPABILITIES,
  metaKeyIssues,
  type SeenMessage,
} from '../kit/index.js';
import { baggageProblem, traceparentProblem, tracestateProblem } from '../request-meta/trace-context.js';
import { clientCheck, describeRequest, fail, judgeRequests, note, pass, sentence, skip } from './kit.js';

const META = 'basic/index#_meta';
const MAX_SHOWN = 5;

/** Every JSON-RPC message in what the client sent (the members of a batch one by one), with what carried it. */
function messagesOf(ctx: { observed: { messages: SeenMessage[] } }): { seen: SeenMessage; message: unknown }[] {
  return ctx.observed.messages.flatMap((seen) =>
    seen.message === undefined
      ? []
      : (Array.isArray(seen.message) ? seen.message : [seen.message]).map((message) => ({ seen, message })),
  );
}

const isId = (id: unknown) => typeof id === 'string' || typeof id === 'number' || id === null;

/** What keeps a message from being a JSON-RPC 2.0 request, notification or response, if anything. */
function jsonRpcProblem(message: unknown): string | undefined {
  if (!isObject(message)) return `${JSON.stringify(message)?.slice(0, 60)} is not an object`;
  if (message.jsonrpc !== '2.0')
    return `"jsonrpc" is ${'jsonrpc' in message ? JSON.stringify(message.jsonrpc) : 'absent'}, not exactly "2.0"`;
  if ('method' in message) {
    if (typeof message.method !== 'string') return `"method" is ${JSON.stringify(message.method)}, not a string`;
    if ('params' in message && !isObject(message.params) && !Array.isArray(message.params))
      return `${message.method} has "params" ${JSON.stringify(message.params)}, neither an object nor an array`;
    if ('id' in message && !isId(message.id))
      return `${message.method} has id ${JSON.stringify(message.id)}, not a string, number or null`;
    return undefined;
  }
  if (!('id' in message)) return 'it has neither "method" nor "id"';
  if ('result' in message === 'error' in message)
    return `a response must have exactly one of "result" and "error" (id ${JSON.stringify(message.id)})`;
  if (
    'error' in message &&
    !(isObject(message.error) && Number.isInteger(message.error.code) && typeof message.error.message === 'string')
  )
    return 'its "error" is not an object with an integer code and a string message';
  return undefined;
}

export const JSON_RPC = clientCheck({
  id: 'base.jsonrpc',
  title: 'Every message the client sends is a JSON-RPC 2.0 message',
  area: 'wire',
  scenario: 'meta',
  sentences: [
    sentence(
      'basic/index#messages',
      'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.',
      'MUST',
    ),
  ],
  run(ctx) {
    // Text that is not JSON at all is judged by transport.utf8, stdio.client.stdin-clean and the HTTP front (a parse
    // error).
    const messages = messagesOf(ctx);
    if (messages.length === 0) return [skip('the client sent no JSON message')];
    const bad = messages.flatMap(({ seen, message }) => {
      const problem = jsonRpcProblem(message);
      return problem ? [{ seen, problem: `message #${seen.seq}: ${problem}` }] : [];
    });
    if (bad.length === 0)
      return [
        pass(
          `all ${messages.length} messages are JSON-RPC 2.0 requests, notifications or responses ("jsonrpc": "2.0")`,
        ),
      ];
    return [
      fail(
        `${bad.length} of ${messages.length}: ${bad
          .slice(0, MAX_SHOWN)
          .map((b) => b.problem)
          .join('; ')}${bad.length > MAX_SHOWN ? '; …' : ''}`,
        '"jsonrpc": "2.0" and the members of a request (method, params as an object or array, an id), a ' +
          'notification (no id) or a response (id, and result or error)',
        bad.slice(0, MAX_SHOWN).map((b) => evidenceOf(b.seen)),
      ),
    ];
  },
});

/** Every `_meta` object of what the client sent: params._meta of its requests and notifications. */
function metaSites(ctx: {
  observed: { messages: SeenMessage[] };
}): { seen: SeenMessage; where: string; meta: Record<string, unknown> }[] {
  return messagesOf(ctx).flatMap(({ seen, message }) => {
    if (!isObject(message) || !isObject(message.params) || !isObject(message.params._meta)) return [];
    return [
      {
        seen,
        where: `${typeof message.method === 'string' ? message.method : 'a message'} (message #${seen.seq})`,
        meta: message.params._meta,
      },
    ];
  });
}

const OTEL_JUDGES: Readonly<Record<string, (value: unknown) => string | undefined>> = {
  traceparent: traceparentProblem,
  tracestate: tracestateProblem,
  baggage: baggageProblem,
};

export const META_KEY_FORMAT = clientCheck({
  id: 'meta.client.key-format',
  covers: ['meta.key.prefix', 'meta.key.labels', 'meta.key.name', 'version.ext.id-format'],
  title: 'The _meta keys and extension identifiers the client sends follow the key grammar',
  area: 'meta-keys',
  scenario: 'meta',
  sentences: [
    sentence(META, 'If specified, MUST be a series of labels separated by dots (.), followed by a slash (/).', 'MUST'),
    sentence(
      META,
      'Labels MUST start with a letter and end with a letter or digit; interior characters can be letters, ' +
        'digits, or hyphens (-).',
      'MUST',
    ),
    sentence(META, 'Unless empty, MUST begin and end with an alphanumeric character ([a-z0-9A-Z]).', 'MUST'),
    sentence(
      'basic/versioning#extension-negotiation',
      'Extension identifiers MUST follow the _meta key naming rules, with a mandatory prefix.',
      'MUST',
    ),
  ],
  run(ctx) {
    const sites = metaSites(ctx);
    if (sites.length === 0) return [skip('no message the client sent has a params._meta object')];
    const found = sites.flatMap((site) => {
      const keys = Object.keys(site.meta)
        .filter((key) => !(key in OTEL_JUDGES))
        .map((key) => ({ key, issues: metaKeyIssues(key).map((i) => i.why) }));
      const capabilities = site.meta[META_CLIENT_CAPABILITIES];
      const extensions =
        isObject(capabilities) && isObject(capabilities.extensions) ? Object.keys(capabilities.extensions) : [];
      const ids = extensions.map((id) => ({ key: `extension ${id}`, issues: extensionIdIssues(id) }));
      return [...keys, ...ids]
        .filter((k) => k.issues.length > 0)
        .map((k) => ({ site, problem: `${site.where}: ${JSON.stringify(k.key)}: ${k.issues.join('; ')}` }));
    });
    if (found.length === 0)
      return [pass(`every _meta key (and extension identifier) in ${sites.length} messages follows the grammar`)];
    const shown = found.slice(0, MAX_SHOWN);
    return [
      fail(
        `${found.length} key(s) break the grammar: ${shown.map((f) => f.problem).join(' | ')}` +
          `${found.length > MAX_SHOWN ? ' | …' : ''}`,
        'keys like "io.modelcontextprotocol/clientInfo" or "progressToken": an optional prefix of ' +
          'dot-separated labels and "/", then a name that starts and ends with a letter or digit; extension ' +
          'identifiers with a prefix',
        shown.map((f) => evidenceOf(f.site.seen)),
      ),
    ];
  },
});

export const OTEL_FORMAT = clientCheck({
  id: 'meta.otel.format',
  title: 'The traceparent, tracestate and baggage values the client sends follow W3C Trace Context and W3C Baggage',
  area: 'meta-keys',
  scenario: 'meta',
  sentences: [
    sentence(
      META,
      'When present, their values MUST follow W3C Trace Context and W3C Baggage formats respectively.',
      'MUST',
    ),
  ],
  run(ctx) {
    const found = metaSites(ctx).flatMap((site) =>
      Object.keys(OTEL_JUDGES)
        .filter((key) => key in site.meta)
        .map((key) => ({ site, key, problem: OTEL_JUDGES[key]!(site.meta[key]) })),
    );
    if (found.length === 0) return [skip('the client sent no traceparent, tracestate or baggage in _meta')];
    const bad = found.filter((f) => f.problem !== undefined);
    if (bad.length === 0) return [pass(`${found.length} trace-context value(s) follow their W3C formats`)];
    return [
      fail(
        bad
          .slice(0, MAX_SHOWN)
          .map((b) => `${b.site.where}: ${b.key} ${b.problem}`)
          .join(' | '),
        'traceparent as version-traceid-parentid-flags (W3C Trace Context), tracestate as key=value members, ' +
          'baggage as key=value members (W3C Baggage)',
        bad
          .slice(0, MAX_SHOWN)
          .flatMap((b) => [evidenceOf(b.site.seen), note(`_meta of ${b.site.where}`, b.site.meta)]),
      ),
    ];
  },
});

export const DISCOVER_NO_PARAMS = clientCheck({
  id: 'discover.no-params',
  title: 'server/discover carries no parameters besides _meta',
  area: 'discovery',
  scenario: 'meta',
  sentences: [
    sentence(
      'server/discover#request',
      'The request carries no body parameters beyond the standard _meta',
      'descriptive',
    ),
  ],
  run(ctx) {
    const discovers = ctx.requests.filter((r) => r.method === 'server/discover');
    const offenders = discovers.flatMap((request) => {
      const extra = Object.keys(request.params).filter((key) => key !== '_meta');
      return extra.length === 0
        ? []
        : [
            {
              request,
              problem: `${describeRequest(request)} carries ${extra.map((k) => JSON.stringify(k)).join(', ')}`,
            },
          ];
    });
    return judgeRequests(
      discovers.length,
      'the client sent no server/discover',
      offenders,
      `${discovers.length} server/discover request(s) carry only _meta`,
      'params holding _meta alone (descriptive text: a deviation warns)',
    );
  },
});

export const BASE_PROTOCOL_CHECKS: readonly ClientCheckDefinition[] = [
  JSON_RPC,
  META_KEY_FORMAT,
  OTEL_FORMAT,
  DISCOVER_NO_PARAMS,
];
