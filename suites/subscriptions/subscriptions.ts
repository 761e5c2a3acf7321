import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  type Evidence,
  type Exchange,
  isInitializeRevision,
  isObject,
  type JsonRpcId,
  type Outcome,
  type SpecSentence,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { sessionTriggerRun, triggerRun, type TriggerRun } from './subscription-trigger.js';
import { listenPrecondition } from './subscription-messages.js';
import {
  ACKNOWLEDGED,
  LIST_CHANGED,
  describeTag,
  isMethod,
  listenFailure,
  listenId,
  sameTag,
  taggedFor,
  tagOf,
} from './subscription-messages.js';

const AREA = 'subscriptions';
const MAX_ACK_WAIT_MS = 5_000;

export interface BasicListen {
  skip?: string;
  id?: JsonRpcId;
  exchange?: Exchange;
  waitedMs?: number;
}

/** One subscriptions/listen with toolsListChanged, held open until its acknowledgement arrives (or the wait ends). */
function basicListen(ctx: CheckContext): Promise<BasicListen> {
  return ctx.memo('subscriptions.basic-listen', async () => {
    const why = await listenPrecondition(ctx);
    if (why) return { skip: why };
    const stream = await ctx.client.listen({ toolsListChanged: true });
    if (!stream) return { skip: 'this target cannot hold a request open' };
    const id = listenId(stream);
    const waitedMs = Math.min(ctx.options.timeoutMs, MAX_ACK_WAIT_MS);
    await stream.waitFor(
      (messages) => messages.some((m) => isMethod(m, ACKNOWLEDGED) && sameTag(tagOf(m), id, 'loose')),
      waitedMs,
    );
    return { id, exchange: await stream.close(), waitedMs };
  });
}

export const ackFirst: CheckDefinition = defineCheck({
  id: 'subs.ack.first',
  covers: ['subs.ack.nothing-before'],
  title:
    'subscriptions/listen is acknowledged first: notifications/subscriptions/acknowledged before any other ' +
    'message of the subscription',
  area: AREA,
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/subscriptions#acknowledgment',
        text:
          'The server MUST send notifications/subscriptions/acknowledged as the first message carrying the ' +
          "subscription's ID in _meta under io.modelcontextprotocol/subscriptionId, and MUST NOT send any " +
          'notification on the subscription before it.',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live'],
  async run(ctx) {
    const listen = await basicListen(ctx);
    if (listen.skip) return [skip(listen.skip)];
    const { id, exchange, waitedMs } = listen as Required<BasicListen>;
    const expected =
      `a notifications/subscriptions/acknowledged whose ` +
      `_meta["io.modelcontextprotocol/subscriptionId"] is ${JSON.stringify(id)}, before any other message of ` +
      `that subscription`;
    const refused = listenFailure(exchange);
    if (refused) return [fail(`the server declares tools.listChanged but ${refused}`, expected, [exchange])];
    const ours = taggedFor(exchange.notifications, id, 'loose');
    const first = ours[0];
    if (first === undefined) {
      return [fail(`no acknowledgement arrived within ${waitedMs} ms of subscriptions/listen`, expected, [exchange])];
    }
    if (!isMethod(first, ACKNOWLEDGED)) {
      return [
        fail(`the first message of the subscription is ${describeMethod(first)}, not the acknowledgement`, expected, [
          exchange,
        ]),
      ];
    }
    return [pass(`acknowledged first (${ours.length} message(s) of the subscription seen)`, [exchange])];
  },
});

export const ackSubset: CheckDefinition = defineCheck({
  id: 'subs.ack.subset',
  title: 'The acknowledgement grants only notification types that were requested (the subset the server honours)',
  area: AREA,
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/subscriptions#acknowledgment',
        text:
          'The notifications field in the acknowledgment reflects the subset the server agreed to honor. ' +
          'Notification types the server does not support are omitted.',
        keyword: 'descriptive',
      },
    ],
  },
  needs: ['live'],
  async run(ctx) {
    const listen = await basicListen(ctx);
    if (listen.skip) return [skip(listen.skip)];
    const { id, exchange } = listen as Required<BasicListen>;
    const ack = taggedFor(exchange.notifications, id, 'loose').find((m) => isMethod(m, ACKNOWLEDGED));
    if (!ack) return [skip('no acknowledgement arrived (subs.ack.first reports it)')];
    const granted =
      isObject(ack) && isObject(ack.params) && isObject(ack.params.notifications)
        ? ack.params.notifications
        : undefined;
    const expected = 'params.notifications ⊆ the requested filter {"toolsListChanged": true}';
    if (!granted) return [fail('the acknowledgement has no params.notifications object', expected, [exchange])];
    const extra = Object.entries(granted).filter(
      ([key, value]) => key !== 'toolsListChanged' && value !== false && value !== undefined,
    );
    if (extra.length > 0) {
      return [
        fail(
          `the acknowledgement grants ${extra.map(([key]) => key).join(', ')}, which the request did not ask for`,
          expected,
          [exchange],
        ),
      ];
    }
    const tools =
      granted.toolsListChanged === true
        ? 'grants toolsListChanged'
        : 'does not grant toolsListChanged (the client must rely on ttlMs)';
    return [pass(`the acknowledgement ${tools} and nothing unrequested`, [exchange])];
  },
});

export const subscriptionIdOnNotifications: CheckDefinition = defineCheck({
  id: 'meta.notif.subscription-id',
  covers: ['subs.id-value'],
  title:
    'Every notification of a subscription carries _meta subscriptionId equal to the listen request id (same JSON type)',
  specRef: 'basic/patterns/subscriptions#receiving-notifications',
  area: AREA,
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/index#_meta',
        text:
          'On notifications delivered via a subscriptions/listen stream, the server MUST include ' +
          'io.modelcontextprotocol/subscriptionId in _meta so the client can correlate the notification with the ' +
          'originating subscription request.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/patterns/subscriptions#receiving-notifications',
        text: 'The value is the JSON-RPC ID of the subscriptions/listen request.',
        keyword: 'descriptive',
      },
    ],
  },
  needs: ['live'],
  phase: 'final',
  async run(ctx) {
    const listen = await basicListen(ctx);
    if (listen.skip) return [skip(listen.skip)];
    const streams: { id: JsonRpcId; exchange: Exchange }[] = [{ id: listen.id!, exchange: listen.exchange! }];
    const trigger = ctx.options.listChangedTrigger ? await triggerRun(ctx) : undefined;
    if (trigger?.streams) streams.push(...trigger.streams.map((s) => ({ id: s.id, exchange: s.exchange })));
    const wrong: { id: JsonRpcId; message: unknown; exchange: Exchange }[] = [];
    for (const { id, exchange } of streams) {
      for (const message of subscriptionMessages(ctx, exchange, id)) {
        if (!sameTag(tagOf(message), id, 'exact')) wrong.push({ id, message, exchange });
      }
    }
    const expected =
      '_meta["io.modelcontextprotocol/subscriptionId"] deep-equal to the listen request id (a number stays a number)';
    if (wrong.length > 0) {
      const first = wrong[0]!;
      return [
        fail(
          `${wrong.length} notification(s) of a subscription carry ${describeTag(tagOf(first.message))} ` +
            `instead of ${JSON.stringify(first.id)} (${describeMethod(first.message)})`,
          expected,
          [...new Set(wrong.map((w) => w.exchange))].slice(0, 3),
        ),
      ];
    }
    const count = streams.reduce((n, s) => n + subscriptionMessages(ctx, s.exchange, s.id).length, 0);
    if (count === 0) return [skip('no notification arrived on any subscription')];
    return [
      pass(
        `${count} notification(s) on ${streams.length} subscription(s) carry the right subscriptionId`,
        streams.map((s) => s.exchange),
      ),
    ];
  },
});

/**
 * The notifications that belong to one subscription. Over HTTP that is everything on its stream. On stdio every
 * message shares one channel, so: those tagged with the id (loosely, to catch a wrongly typed tag), plus any
 * acknowledgement or list_changed without a tag, which can only belong to a subscription.
 */
function subscriptionMessages(ctx: CheckContext, exchange: Exchange, id: JsonRpcId): unknown[] {
  if (ctx.transportKind === 'http') return exchange.notifications.filter((m) => isObject(m) && 'method' in m);
  return exchange.notifications.filter(
    (m) =>
      sameTag(tagOf(m), id, 'loose') ||
      (tagOf(m) === undefined && (isMethod(m, ACKNOWLEDGED) || isMethod(m, LIST_CHANGED))),
  );
}

const NEEDS_TRIGGER =
  'no way to change the tool set from outside: name a tool that does with --list-changed-trigger <tool> (it is ' +
  'called twice: change, then undo)';

/** The shared trigger run, or why the change checks cannot decide. */
async function observedChange(ctx: CheckContext): Promise<{ run: Required<TriggerRun> } | { skipped: string }> {
  if (!ctx.options.listChangedTrigger) return { skipped: NEEDS_TRIGGER };
  const run = await triggerRun(ctx);
  if (run.skip) return { skipped: run.skip };
  const complete = run as Required<TriggerRun>;
  if (!complete.change.diff.changed)
    return { skipped: `calling ${complete.change.tool} did not change the tool set, so nothing was due` };
  return { run: complete };
}

/** The initialize revisions' words (the same in each): there are no subscriptions, the session itself is told. */
const SESSION_NOTIFIED: SpecSentence = {
  ref: 'server/tools#list-changed-notification',
  text:
    'When the list of available tools changes, servers that declared the listChanged capability SHOULD send a ' +
    'notification:',
  keyword: 'SHOULD',
};

export const listChangedNotify: CheckDefinition = defineCheck({
  id: 'tools.listchanged.notify',
  title:
    'When the tool set changes, notifications/tools/list_changed follows: to a subscriber with ' +
    'toolsListChanged (2026-07-28), on the session (initialize revisions)',
  area: AREA,
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/tools#list-changed-notification',
        text:
          'When the list of available tools changes, servers that declared the listChanged capability SHOULD ' +
          'send a notification to clients that have opened a subscriptions/listen stream with toolsListChanged: ' +
          'true',
        keyword: 'SHOULD',
      },
    ],
    '2025-11-25': [SESSION_NOTIFIED],
    '2025-06-18': [SESSION_NOTIFIED],
    '2025-03-26': [SESSION_NOTIFIED],
    '2024-11-05': [SESSION_NOTIFIED],
  },
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    if (isInitializeRevision(ctx.revision)) return sessionNotified(ctx);
    const observed = await observedChange(ctx);
    if ('skipped' in observed) return [skip(observed.skipped)];
    const { run } = observed;
    const { subscriber, change } = run;
    const evidence: Evidence[] = [
      change.call,
      subscriber.exchange,
      note('tool set before and after the trigger', change.diff),
    ];
    const notified = taggedFor(subscriber.exchange.notifications, subscriber.id, 'loose').some((m) =>
      isMethod(m, LIST_CHANGED),
    );
    if (!notified) {
      return [
        fail(
          `the tool set changed (${change.diff.summary}) but no notifications/tools/list_changed arrived ` +
            `within ${run.waitedMs} ms`,
          'notifications/tools/list_changed on the subscription that asked for toolsListChanged',
          evidence,
        ),
      ];
    }
    return [pass(`notified of the change (${change.diff.summary})`, evidence)];
  },
});

async function sessionNotified(ctx: CheckContext): Promise<Outcome[]> {
  if (!ctx.options.listChangedTrigger) return [skip(NEEDS_TRIGGER)];
  const run = await sessionTriggerRun(ctx);
  if ('skip' in run) return [skip(run.skip)];
  const { change, notified, listings, waitedMs } = run;
  if (!change.diff.changed) return [skip(`calling ${change.tool} did not change the tool set, so nothing was due`)];
  const before = listings.filter((e) => e.seq < change.call.seq);
  const after = listings.filter((e) => e.seq > change.call.seq);
  const evidence: Evidence[] = [
    ...before,
    change.call,
    ...after,
    note('tool set before and after the trigger', change.diff),
  ];
  if (!notified) {
    return [
      fail(
        `the tool set changed (${change.diff.summary}) but no notifications/tools/list_changed arrived on the ` +
          `session within ${waitedMs} ms`,
        'notifications/tools/list_changed on the session, from a server that declared tools.listChanged: true',
        evidence,
      ),
    ];
  }
  const where = notified.on ? 'with the answer to the call' : 'on the session after the call';
  return [
    pass(`notified of the change (${change.diff.summary}) ${where}`, [
      ...evidence,
      ...(notified.on ? [] : [note('the notification', notified.message)]),
    ]),
  ];
}

export const noUnrequested: CheckDefinition = defineCheck({
  id: 'subs.no-unrequested',
  covers: ['subs.filter-optional'],
  title: 'A subscription that did not ask for toolsListChanged gets no notifications/tools/list_changed',
  area: AREA,
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/subscriptions#opening-a-stream',
        text: 'The server MUST NOT send notification types the client has not explicitly requested.',
        keyword: 'MUST NOT',
      },
    ],
  },
  needs: ['live'],
  phase: 'serial',
  async run(ctx) {
    const observed = await observedChange(ctx);
    if ('skipped' in observed) return [skip(observed.skipped)];
    const { bystander, change } = observed.run;
    const evidence: Evidence[] = [change.call, bystander.exchange];
    const unrequested = taggedFor(bystander.exchange.notifications, bystander.id, 'loose').filter((m) =>
      isMethod(m, LIST_CHANGED),
    );
    if (unrequested.length > 0) {
      return [
        fail(
          `a subscription opened with {"promptsListChanged": true} (no toolsListChanged) received ` +
            `${unrequested.length} notifications/tools/list_changed`,
          'only the notification types the subscription requested',
          evidence,
        ),
      ];
    }
    return [pass('the subscription without toolsListChanged received no tool-list notification', evidence)];
  },
});

function describeMethod(message: unknown): string {
  return isObject(message) && typeof message.method === 'string' ? message.method : 'a message without a method';
}

export const SUBSCRIPTION_CHECKS: readonly CheckDefinition[] = [
  ackFirst,
  ackSubset,
  subscriptionIdOnNotifications,
  listChangedNotify,
  noUnrequested,
];
