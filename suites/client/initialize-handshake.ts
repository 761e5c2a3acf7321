import {
  type ClientCheckContext,
  type ClientCheckDefinition,
  evidenceOf,
  isInitializeRevision,
  isObject,
  INITIALIZE_REVISIONS,
  type SeenMessage,
  type SpecSentences,
} from '../kit/index.js';
import { idNeverReusedSentence, reusedKeys } from '../kit/id-never-reused.js';
import { onRevisions, perRevision, since } from '../kit/same-sentences.js';
import { fail, judgeRequests, pass, sameId, sentence, skip } from './kit.js';

/**
 * The client rules of the initialize wire (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05): the handshake, sessions
 * and headers of Streamable HTTP, answers to the server's requests, cancellation and batches. Each quotes the pages of
 * the revisions it exists on; on 2026-07-28 none of them exists (the runner skips them there).
 */
function initializeHandshakeCheck(
  definition: Omit<ClientCheckDefinition, 'keyword' | 'specRef'> & { sentences: SpecSentences },
): ClientCheckDefinition {
  const first = Object.values(definition.sentences).find((s) => s && s.length > 0)![0]!;
  return { ...definition, keyword: first.keyword, specRef: first.ref };
}

/** One JSON-RPC message the client sent, with what carried it (a batch gives one per element). */
interface Sent {
  seen: SeenMessage;
  message: Record<string, unknown>;
}

const sentMessages = (ctx: ClientCheckContext): Sent[] =>
  ctx.observed.messages.flatMap((seen) =>
    (Array.isArray(seen.message) ? seen.message : [seen.message]).flatMap((message) =>
      isObject(message) ? [{ seen, message }] : [],
    ),
  );
const isRequest = (m: Record<string, unknown>) => typeof m.method === 'string' && 'id' in m;
const isInitialize = (m: Record<string, unknown>) => m.method === 'initialize';
const describe = (s: Sent) =>
  `${typeof s.message.method === 'string' ? s.message.method : 'response'}` +
  `${'id' in s.message ? ` (id ${JSON.stringify(s.message.id)})` : ''}, message #${s.seen.seq}` +
  `${s.seen.http ? ` (HTTP ${s.seen.http.method})` : ''}`;
const sessionHeader = (seen: SeenMessage) => seen.http?.headers['mcp-session-id'];
const mintedSession = (seen: SeenMessage) => seen.reply?.headers?.['mcp-session-id'];

/**
 * The conversations to judge the handshake in: each stdio server process the client started; over HTTP each session,
 * opened by an `initialize` without a session on and followed by the messages that name the id its answer assigned
 * (a client may hold two sessions at once, and their messages interleave). A message that names no session the
 * scripted server assigned (none was assigned, or the client left the header out) joins the conversation of the
 * message before it; messages before the first `initialize` are a conversation of their own.
 */
function conversations(ctx: ClientCheckContext): Sent[][] {
  const all = sentMessages(ctx);
  if (ctx.observed.transport === 'stdio') {
    const by = new Map<string, Sent[]>();
    for (const s of all) by.set(s.seen.connection, [...(by.get(s.seen.connection) ?? []), s]);
    return [...by.values()];
  }
  const groups: Sent[][] = [];
  const bySession = new Map<string, Sent[]>();
  let latest: Sent[] | undefined;
  for (const s of all) {
    const carried = sessionHeader(s.seen);
    let group = carried === undefined ? undefined : bySession.get(carried);
    if (carried === undefined && isInitialize(s.message)) {
      group = [];
      const assigned = mintedSession(s.seen);
      if (assigned !== undefined) bySession.set(assigned, group);
      groups.push(group);
    }
    if (group === undefined) {
      group = latest ?? [];
      if (latest === undefined) groups.push(group);
    }
    group.push(s);
    latest = group;
  }
  return groups;
}

const LIFECYCLE = 'basic/lifecycle#initialization';

export const INITIALIZE_FIRST = initializeHandshakeCheck({
  id: 'lifecycle.client.initialize-first',
  title: 'initialize comes first, and nothing but pings before its answer',
  area: 'wire',
  scenario: 'meta',
  sentences: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(LIFECYCLE, 'The initialization phase MUST be the first interaction between client and server.', 'MUST'),
    sentence(
      LIFECYCLE,
      'The client SHOULD NOT send requests other than pings before the server has responded to the initialize request.',
      'SHOULD NOT',
    ),
  ),
  run(ctx) {
    const groups = conversations(ctx);
    const early = groups.flatMap((group) => (isInitialize(group[0]!.message) ? [] : [group[0]!]));
    if (early.length > 0) {
      return [
        fail(
          `${early.length} of ${groups.length} conversation(s) began with something else: ` +
            `${early.slice(0, 3).map(describe).join('; ')}`,
          'an initialize request as the first message',
          early.slice(0, 3).map((s) => evidenceOf(s.seen)),
        ),
      ];
    }
    const shouldNot = (INITIALIZE_FIRST.sentences[ctx.observed.wire] ?? []).find((s) => s.keyword === 'SHOULD NOT');
    const hasty = groups.flatMap((group) => {
      const answeredAt = group[0]!.seen.answeredT;
      return group
        .slice(1)
        .filter(
          (s) =>
            isRequest(s.message) && s.message.method !== 'ping' && (answeredAt === undefined || s.seen.t < answeredAt),
        );
    });
    if (hasty.length > 0) {
      return [
        {
          ...fail(
            `${hasty.length} request(s) went out before initialize was answered: ` +
              `${hasty.slice(0, 3).map(describe).join('; ')}`,
            'only pings until the initialize response',
            hasty.slice(0, 3).map((s) => evidenceOf(s.seen)),
          ),
          ...(shouldNot ? { sentence: shouldNot } : {}),
        },
      ];
    }
    return [
      pass(
        `each of ${groups.length} conversation(s) began with initialize, and nothing but pings went out before ` +
          `its answer`,
      ),
    ];
  },
});

export const INITIALIZED_SENT = initializeHandshakeCheck({
  id: 'lifecycle.client.initialized',
  title: 'notifications/initialized follows a successful initialize',
  area: 'wire',
  scenario: 'meta',
  sentences: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(
      LIFECYCLE,
      'After successful initialization, the client MUST send an initialized notification to indicate it is ' +
        'ready to begin normal operations',
      'MUST',
    ),
  ),
  run(ctx) {
    const answered = conversations(ctx).filter(
      (group) => isInitialize(group[0]!.message) && isObject(resultOfSeen(group[0]!)),
    );
    if (answered.length === 0) return [skip('no initialize of the client was answered with a result')];
    const without = answered.filter((group) => !group.some((s) => s.message.method === 'notifications/initialized'));
    if (without.length === 0)
      return [pass(`each of ${answered.length} successful initialize(s) was followed by notifications/initialized`)];
    return [
      fail(
        `${without.length} of ${answered.length} successful initialize(s) got no notifications/initialized ` +
          `after them: ${without.map((g) => describe(g[0]!)).join('; ')}`,
        'a notifications/initialized notification after the initialize result',
        without.slice(0, 3).map((g) => evidenceOf(g[0]!.seen)),
      ),
    ];
  },
});

function resultOfSeen(s: Sent): unknown {
  const body = s.seen.reply?.body;
  const answer = (Array.isArray(body) ? body : [body]).find((b) => isObject(b) && sameId(b.id, s.message.id));
  return isObject(answer) ? answer.result : undefined;
}

const SESSIONS = 'basic/transports#session-management';
const STREAMABLE_HTTP = since('2025-03-26');

export const SESSION_ECHOED = initializeHandshakeCheck({
  id: 'http.session.echo',
  title: 'The session id goes back on every request after initialize',
  area: 'http',
  scenario: 'meta',
  transport: 'http',
  sentences: perRevision(STREAMABLE_HTTP.filter(isInitializeRevision), (wire) => {
    const name = wire === '2025-11-25' ? 'MCP-Session-Id' : 'Mcp-Session-Id';
    return [
      sentence(
        SESSIONS,
        `If an ${name} is returned by the server during initialization, clients using the Streamable HTTP ` +
          `transport MUST include it in the ${name} header on all of their subsequent HTTP requests.`,
        'MUST',
      ),
    ];
  }),
  run(ctx) {
    // Any session the server assigned and has not ended is one a request may name (a client may hold two at once).
    const minted = new Set<string>();
    const ended = new Set<string>();
    let judged = 0;
    const offenders: { request: undefined; problem: string; seen: SeenMessage }[] = [];
    for (const seen of ctx.observed.messages) {
      const carried = sessionHeader(seen);
      const messages = Array.isArray(seen.message) ? seen.message : [seen.message];
      const opening = carried === undefined && messages.some((m) => isObject(m) && isInitialize(m));
      if (minted.size > 0 && !opening && !(carried !== undefined && ended.has(carried))) {
        judged += 1;
        if (carried === undefined || !minted.has(carried)) {
          offenders.push({
            request: undefined,
            seen,
            problem:
              `message #${seen.seq} (HTTP ${seen.http?.method ?? '?'}) carried ` +
              `${
                carried === undefined
                  ? 'no Mcp-Session-Id'
                  : `Mcp-Session-Id ${JSON.stringify(carried)}, which ` + `the server never assigned`
              }`,
          });
        }
      }
      if (seen.reply?.status === 404 && carried !== undefined) ended.add(carried);
      const assigned = mintedSession(seen);
      if (assigned !== undefined) minted.add(assigned);
    }
    const outcomes = judgeRequests(
      judged,
      'the scripted server assigned no session, or the client sent nothing after it',
      offenders,
      `all ${judged} HTTP requests after initialize carried the id of their session`,
      `Mcp-Session-Id: the id the initialize response carried (` +
        `${[...minted].map((id) => JSON.stringify(id)).join(', ')})`,
    );
    if (outcomes[0]!.status === 'fail') outcomes[0]!.evidence = offenders.slice(0, 5).map((o) => evidenceOf(o.seen));
    return outcomes;
  },
});

export const NEW_SESSION_AFTER_404 = initializeHandshakeCheck({
  id: 'http.session.new-after-404',
  title: 'A 404 on a session is followed by a new initialize without a session id',
  area: 'http',
  scenario: 'http',
  transport: 'http',
  sentences: perRevision(STREAMABLE_HTTP.filter(isInitializeRevision), (wire) => [
    sentence(
      SESSIONS,
      `When a client receives HTTP 404 in response to a request containing an ` +
        `${wire === '2025-11-25' ? 'MCP-Session-Id' : 'Mcp-Session-Id'}, it MUST start a new session by sending ` +
        `a new InitializeRequest without a session ID attached.`,
      'MUST',
    ),
  ]),
  run(ctx) {
    const messages = ctx.observed.messages;
    // A POST: a DELETE that meets a 404 found its session already ended, which asks for nothing new.
    const gone = messages.find(
      (seen) => seen.reply?.status === 404 && sessionHeader(seen) !== undefined && seen.http?.method === 'POST',
    );
    if (!gone)
      return [
        skip(
          'no request of the client met a 404 on its session (the scripted server ends the session after the ' +
            'last listed tool was answered; the client sent nothing after that)',
        ),
      ];
    const ended = sessionHeader(gone)!;
    const after = messages.filter((seen) => seen.seq > gone.seq && seen.http?.method === 'POST');
    const renewed = after.find(
      (seen) =>
        sessionHeader(seen) === undefined &&
        (Array.isArray(seen.message) ? seen.message : [seen.message]).some((m) => isObject(m) && isInitialize(m)),
    );
    const stale = after.filter(
      (seen) => sessionHeader(seen) === ended && (renewed === undefined || seen.seq < renewed.seq),
    );
    if (stale.length > 0) {
      return [
        fail(
          `after the 404 of message #${gone.seq}, the client sent ${stale.length} more request(s) in the ended ` +
            `session (first: message #${stale[0]!.seq}) instead of a new initialize`,
          'a new initialize request without Mcp-Session-Id',
          [evidenceOf(gone), ...stale.slice(0, 2).map(evidenceOf)],
        ),
      ];
    }
    if (!renewed)
      return [
        fail(
          `after the 404 of message #${gone.seq} the client sent no new initialize: it started no new session`,
          'a new initialize request without Mcp-Session-Id',
          [evidenceOf(gone)],
        ),
      ];
    return [
      pass(
        `after the 404 of message #${gone.seq} the client started a new session with initialize (message #` +
          `${renewed.seq})`,
        [evidenceOf(gone), evidenceOf(renewed)],
      ),
    ];
  },
});

const PV = 'basic/transports#protocol-version-header';

export const INITIALIZE_PV_HEADER = initializeHandshakeCheck({
  id: 'http.pv.after-initialize',
  title: 'MCP-Protocol-Version on every HTTP request after initialize',
  area: 'http',
  scenario: 'meta',
  transport: 'http',
  sentences: onRevisions(
    ['2025-11-25', '2025-06-18'],
    sentence(
      PV,
      'If using HTTP, the client MUST include the MCP-Protocol-Version: <protocol-version> HTTP header on all ' +
        'subsequent requests to the MCP server, allowing the MCP server to respond based on the MCP protocol ' +
        'version.',
      'MUST',
    ),
    sentence(
      PV,
      'The protocol version sent by the client SHOULD be the one negotiated during initialization.',
      'SHOULD',
    ),
  ),
  run(ctx) {
    const opened = ctx.observed.messages.findIndex(
      (seen) =>
        initializeIdOf(seen) !== undefined &&
        resultOfSeen({ seen, message: { id: initializeIdOf(seen) } }) !== undefined,
    );
    if (opened < 0) return [skip('no initialize of the client was answered')];
    const later = ctx.observed.messages
      .slice(opened + 1)
      .filter((seen) => seen.http !== undefined && initializeIdOf(seen) === undefined);
    const missing = later.filter((seen) => seen.http!.headers['mcp-protocol-version'] === undefined);
    if (missing.length > 0) {
      return [
        fail(
          `${missing.length} of ${later.length} HTTP requests after initialize carried no MCP-Protocol-Version ` +
            `(first: message #${missing[0]!.seq}, HTTP ${missing[0]!.http!.method})`,
          `MCP-Protocol-Version: ${ctx.observed.wire}`,
          missing.slice(0, 3).map(evidenceOf),
        ),
      ];
    }
    const other = later.filter((seen) => seen.http!.headers['mcp-protocol-version'] !== ctx.observed.wire);
    if (other.length > 0) {
      const should = (INITIALIZE_PV_HEADER.sentences[ctx.observed.wire] ?? []).find((s) => s.keyword === 'SHOULD');
      return [
        {
          ...fail(
            `${other.length} of ${later.length} HTTP requests after initialize named another version than the ` +
              `one agreed (${ctx.observed.wire}): first ` +
              `${JSON.stringify(other[0]!.http!.headers['mcp-protocol-version'])}`,
            `MCP-Protocol-Version: ${ctx.observed.wire}`,
            other.slice(0, 3).map(evidenceOf),
          ),
          ...(should ? { sentence: should } : {}),
        },
      ];
    }
    if (later.length === 0) return [skip('the client sent no HTTP request after initialize')];
    return [
      pass(`all ${later.length} HTTP requests after initialize carried MCP-Protocol-Version: ${ctx.observed.wire}`),
    ];
  },
});

function initializeIdOf(seen: SeenMessage): unknown {
  const found = (Array.isArray(seen.message) ? seen.message : [seen.message]).find(
    (m) => isObject(m) && isInitialize(m),
  );
  return isObject(found) ? found.id : undefined;
}

export const ANSWER_SAME_ID = initializeHandshakeCheck({
  id: 'base.response.same-id',
  title: "Answers to the server's requests carry the request's id",
  area: 'wire',
  scenario: 'mrtr',
  sentences: perRevision(INITIALIZE_REVISIONS, (wire) =>
    wire === '2025-11-25'
      ? [
          sentence(
            'basic/index#result-responses',
            'Result responses MUST include the same ID as the request they correspond to.',
            'MUST',
          ),
          sentence(
            'basic/index#error-responses',
            'Error responses MUST include the same ID as the request they correspond to',
            'MUST',
          ),
        ]
      : [
          sentence(
            wire === '2024-11-05' ? 'basic/messages#responses' : 'basic/index#responses',
            'Responses MUST include the same ID as the request they correspond to.',
            'MUST',
          ),
        ],
  ),
  run(ctx) {
    const asked = ctx.observed.sentNotifications
      .map((n) => n.message)
      .filter((m) => typeof m.method === 'string' && 'id' in m);
    const responses = sentMessages(ctx).filter((s) => s.message.method === undefined && 'id' in s.message);
    if (responses.length === 0)
      return [
        skip(
          asked.length === 0
            ? 'the scripted server sent the client no request (it declared neither elicitation, roots nor ' +
                'sampling, or never called ask_client)'
            : 'the client answered none of the requests the scripted server sent',
        ),
      ];
    const offenders = responses.filter((s) => !asked.some((m) => sameId(m.id, s.message.id)));
    if (offenders.length === 0)
      return [
        pass(
          `all ${responses.length} answers carried the id of a request the server sent (` +
            `${asked.map((m) => `${String(m.method)} ${JSON.stringify(m.id)}`).join(', ')})`,
        ),
      ];
    return [
      fail(
        `${offenders.length} of ${responses.length} answers carried an id the server never used: ` +
          `${offenders.slice(0, 3).map(describe).join('; ')}`,
        `the id of the server's request (${asked.map((m) => JSON.stringify(m.id)).join(', ')})`,
        offenders.slice(0, 3).map((s) => evidenceOf(s.seen)),
      ),
    ];
  },
});

const CANCELLATION = 'basic/utilities/cancellation#behavior-requirements';

export const CANCEL_OWN = initializeHandshakeCheck({
  id: 'cancel.client.own-requests',
  title: 'Cancellation only for requests the client issued (never initialize)',
  area: 'wire',
  scenario: 'meta',
  sentences: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(
      CANCELLATION,
      'Cancellation notifications MUST only reference requests that: Were previously issued in the same direction',
      'MUST',
    ),
    sentence(CANCELLATION, 'The initialize request MUST NOT be cancelled by clients', 'MUST NOT'),
  ),
  run(ctx) {
    const sent = sentMessages(ctx);
    const cancels = sent.filter((s) => s.message.method === 'notifications/cancelled');
    if (cancels.length === 0) return [skip('the client cancelled nothing')];
    const offenders = cancels.flatMap((c) => {
      const requestId = isObject(c.message.params) ? c.message.params.requestId : undefined;
      const own = sent.find(
        (s) => s.seen.seq <= c.seen.seq && s !== c && isRequest(s.message) && sameId(s.message.id, requestId),
      );
      if (!own)
        return [
          {
            request: undefined,
            seen: c.seen,
            problem:
              `${describe(c)} names requestId ${JSON.stringify(requestId)}, which is not a request the ` +
              `client issued`,
          },
        ];
      if (isInitialize(own.message))
        return [{ request: undefined, seen: c.seen, problem: `${describe(c)} cancels initialize` }];
      return [];
    });
    const outcomes = judgeRequests(
      cancels.length,
      'the client cancelled nothing',
      offenders,
      `all ${cancels.length} cancellations named a request the client issued`,
      'notifications/cancelled only for a request the client sent (not initialize)',
    );
    if (outcomes[0]!.status === 'fail') outcomes[0]!.evidence = offenders.slice(0, 5).map((o) => evidenceOf(o.seen));
    return outcomes;
  },
});

const STDIO_INDIVIDUAL = sentence(
  'basic/transports#stdio',
  'Messages are individual JSON-RPC requests, notifications, or responses.',
  'descriptive',
);

export const NO_BATCH = initializeHandshakeCheck({
  id: 'jsonrpc.client.no-batch',
  title: 'No JSON-RPC batches (2025-06-18 on)',
  area: 'wire',
  scenario: 'meta',
  sentences: onRevisions(
    ['2025-11-25', '2025-06-18'],
    sentence(
      'basic/transports#sending-messages-to-the-server',
      'The body of the POST request MUST be a single JSON-RPC _request_, _notification_, or _response_.',
      'MUST',
    ),
    STDIO_INDIVIDUAL,
  ),
  run(ctx) {
    const batches = ctx.observed.messages.filter((seen) => Array.isArray(seen.message));
    const judged = ctx.observed.messages.length;
    if (batches.length === 0) return [pass(`none of ${judged} messages was a batch`)];
    const outcome = fail(
      `${batches.length} of ${judged} messages were JSON-RPC batches (first: message #${batches[0]!.seq}, ` +
        `${(batches[0]!.message as unknown[]).length} element(s))`,
      'one JSON-RPC message per POST body or stdio line',
      batches.slice(0, 3).map(evidenceOf),
    );
    return [ctx.observed.transport === 'stdio' ? { ...outcome, sentence: STDIO_INDIVIDUAL } : outcome];
  },
});

/**
 * The session a message of the client belongs to: over stdio the server process, over HTTP the Mcp-Session-Id it named
 * (an initialize without one: the session its answer opened).
 */
const sessionOf = (seen: SeenMessage): string =>
  seen.transport === 'stdio'
    ? `process ${seen.connection}`
    : `session ${sessionHeader(seen) ?? mintedSession(seen) ?? '(none)'}`;

export const ID_NEVER_REUSED = initializeHandshakeCheck({
  id: 'base.req.id-never-reused',
  title: 'The client never reuses the id of a request it sent earlier in the session',
  area: 'wire',
  scenario: 'meta',
  sentences: perRevision(INITIALIZE_REVISIONS, (wire) => [idNeverReusedSentence(wire)]),
  run(ctx) {
    // initialize counts: it is the session's first request.
    const requests = sentMessages(ctx).filter(
      (s) => isRequest(s.message) && !String(s.message.method).startsWith('notifications/'),
    );
    const offenders = reusedKeys(
      requests,
      (s) => sessionOf(s.seen),
      (s) => s.message.id,
    ).map(({ item, earlier }) => ({
      request: undefined,
      seen: item.seen,
      problem: `${describe(item)} reused the id of ${describe(earlier)} in the same ${sessionOf(item.seen)}`,
    }));
    const outcomes = judgeRequests(
      requests.length,
      'the client sent no request',
      offenders,
      `none of ${requests.length} requests reused an id already used in its session`,
      'a new id for every request within a session',
    );
    if (outcomes[0]!.status === 'fail') outcomes[0]!.evidence = offenders.slice(0, 5).map((o) => evidenceOf(o.seen));
    return outcomes;
  },
});

export const INITIALIZE_CHECKS: readonly ClientCheckDefinition[] = [
  INITIALIZE_FIRST,
  INITIALIZED_SENT,
  SESSION_ECHOED,
  NEW_SESSION_AFTER_404,
  INITIALIZE_PV_HEADER,
  ANSWER_SAME_ID,
  CANCEL_OWN,
  NO_BATCH,
  ID_NEVER_REUSED,
];
