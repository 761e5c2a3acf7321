import { methodOf } from '../arrival-log.js';
import { asksForLogs, callsTool } from '../line-fields.js';
import { notification, type OutgoingMessage } from '../messages.js';
import { isObject } from '../../../src/core/jsonrpc.js';
import { ErrorCode } from '../constants.js';
import { SUBSCRIPTION_ID } from '../subscriptions.js';
import { defineDefects } from './define.js';
import type { JsonObject } from './seams/json.js';
import { numberSpelledBy } from './spelled-numbers.js';

/**
 * How much later the calls of the cancel defects (answer-, progress-, log-after-cancel) answer: their audits run with
 * --timeout 2000, so the call is cancelled first.
 */
const SLOW_ANSWER_MS = 4500;
/** How long after the cancellation a cancelled call of progress-after-cancel or log-after-cancel still speaks. */
const STILL_SPEAKS_AFTER_MS = 300;

const jsonLines = (messages: readonly OutgoingMessage[]): string =>
  messages.map((message) => `${JSON.stringify(message)}\n`).join('');

/**
 * The capability of the defects that send notifications/message (all but log-without-capability, whose rule is the
 * declaration), so that only the rule each breaks is broken.
 */
const declaresLogging = (capabilities: JsonObject): void => {
  capabilities.logging = {};
};

/** answer-notification's answer to a notifications/cancelled without requestId (a response without an id). */
const NO_SUCH_REQUEST = {
  jsonrpc: '2.0',
  error: { code: ErrorCode.InvalidParams, message: 'Invalid params: no such request to cancel' },
};

/** Defects that the checks of suites/notifications/ catch, each breaking one of them. */
export const NOTIFICATIONS_DEFECTS = defineDefects([
  {
    name: 'log-without-level',
    breaks: 'log.no-level-no-message',
    description:
      'every tools/call answer is preceded by an error-level notifications/message, log level asked for or not',
    transports: ['stdio'],
    at: {
      serverCapabilities: declaresLogging,
      callNotifications: ({ logs }) => {
        logs.push(
          notification('notifications/message', { level: 'error', logger: 'tools', data: 'tool call received' }),
        );
      },
    },
  },
  {
    name: 'log-below-level',
    breaks: 'log.may-at-or-above',
    description:
      'a tools/call that sets a log level gets a debug-level notifications/message whatever level it asked for',
    transports: ['stdio'],
    at: {
      serverCapabilities: declaresLogging,
      callNotifications: ({ logLevel, logs }) => {
        const parsed = { level: 'debug', logger: 'tools', data: { step: 'arguments parsed' } };
        if (logLevel !== undefined) logs.push(notification('notifications/message', parsed));
      },
    },
  },
  {
    name: 'log-without-capability',
    breaks: 'log.capability-declared',
    description:
      'a tools/call that sets a log level gets a notifications/message at that level, while discover declares ' +
      'no logging capability',
    transports: ['stdio'],
    at: {
      callNotifications: ({ logLevel, logs }) => {
        if (logLevel !== undefined)
          logs.push(
            notification('notifications/message', { level: logLevel, logger: 'tools', data: 'tool call finished' }),
          );
      },
    },
  },
  {
    name: 'log-on-listen',
    breaks: 'log.request-scoped',
    description: 'every subscriptions/listen stream starts with an info-level notifications/message',
    transports: ['http'],
    at: {
      serverCapabilities: declaresLogging,
      listenOpening: ({ id, transport, firstMessages }) => {
        if (transport !== 'http') return;
        const opened = {
          level: 'info',
          logger: 'subscriptions',
          data: 'listen stream opened',
          _meta: { [SUBSCRIPTION_ID]: id },
        };
        firstMessages.push(notification('notifications/message', opened));
      },
    },
  },
  {
    name: 'log-level-unchecked',
    breaks: 'log.invalid-level',
    description: 'an unknown io.modelcontextprotocol/logLevel ("verbose") is accepted',
    transports: ['stdio'],
    at: {
      messageRules: (rules) => {
        rules.logLevelChecked = false;
      },
    },
  },
  {
    name: 'progress-token-as-number',
    breaks: 'progress.token-ref',
    description: 'progress notifications refer to a progressToken of digits ("9017") by the number it spells (9017)',
    transports: ['stdio'],
    at: {
      callNotifications: ({ progress }) => {
        for (const message of progress) {
          const params = message.params as JsonObject;
          const number = numberSpelledBy(params.progressToken);
          if (number !== undefined) params.progressToken = number;
        }
      },
    },
  },
  {
    name: 'progress-not-increasing',
    breaks: 'progress.increase',
    description: 'a tools/call with a progressToken gets progress 1, then progress 1 again',
    transports: ['stdio'],
    at: {
      callNotifications: ({ progress }) => {
        const finished = progress[0];
        if (finished)
          progress.unshift(
            notification('notifications/progress', {
              progressToken: (finished.params as JsonObject).progressToken,
              progress: 1,
              message: 'Tool call started',
            }),
          );
      },
    },
  },
  {
    name: 'progress-after-response',
    breaks: 'progress.stop',
    description: 'a tools/call with a progressToken gets one more progress notification after its response',
    transports: ['stdio'],
    at: {
      callNotifications: ({ progressToken, after }) => {
        if (progressToken !== undefined)
          after.push(
            notification('notifications/progress', { progressToken, progress: 2, total: 2, message: 'Cleaning up' }),
          );
      },
    },
  },
  {
    name: 'answer-after-cancel',
    breaks: 'stdio.cancel.server-silence',
    description:
      'get_time answers after 4.5 s, even when the call was cancelled (the audit runs with --timeout 2000, so ' +
      'it cancels the call first)',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
    at: {
      stdioRules: (rules) => {
        rules.cancellationSilences = false;
      },
      stdioHeldAnswer: (line) => (callsTool(line, 'get_time') ? { delayMs: SLOW_ANSWER_MS } : undefined),
    },
  },
  {
    name: 'progress-after-cancel',
    breaks: 'stdio.cancel.server-silence',
    description:
      'a tools/call with a progressToken answers after 4.5 s; cancelled first (the audit runs with --timeout ' +
      '2000), it drops its answer but still sends its progress notification 300 ms after the cancellation',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
    at: {
      stdioHeldAnswer: (line, messages) => {
        if (methodOf(line) !== 'tools/call') return undefined;
        const progress = messages.filter((m) => m.method === 'notifications/progress');
        if (progress.length === 0) return undefined;
        return {
          delayMs: SLOW_ANSWER_MS,
          saidAfterCancel: { afterMs: STILL_SPEAKS_AFTER_MS, text: jsonLines(progress) },
        };
      },
    },
  },
  {
    name: 'log-after-cancel',
    breaks: 'stdio.cancel.server-silence',
    description:
      'a tools/call that asks for log messages answers after 4.5 s; cancelled first (the audit runs with ' +
      '--timeout 2000), it drops its answer but logs the cancellation to the client 300 ms later',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
    at: {
      serverCapabilities: declaresLogging,
      stdioHeldAnswer: (line) => {
        if (methodOf(line) !== 'tools/call' || !asksForLogs(line)) return undefined;
        const cancelled = notification('notifications/message', {
          level: 'warning',
          logger: 'tools',
          data: 'call cancelled by the client; cleaning up',
        });
        return {
          delayMs: SLOW_ANSWER_MS,
          saidAfterCancel: { afterMs: STILL_SPEAKS_AFTER_MS, text: jsonLines([cancelled]) },
        };
      },
    },
  },
  {
    name: 'cancel-call-notification',
    breaks: 'cancel.server.no-other',
    description: 'every tools/call answer is followed by a notifications/cancelled for that call',
    transports: ['stdio'],
    at: {
      requestAnswered: ({ id, method, transport, after }) => {
        if (method === 'tools/call' && transport === 'stdio')
          after.push(notification('notifications/cancelled', { requestId: id, reason: 'call finished' }));
      },
    },
  },
  {
    name: 'answer-notification',
    breaks: 'base.notif.no-response',
    description: 'a notifications/cancelled without requestId is answered with a -32602 error (without an id)',
    transports: ['stdio'],
    at: {
      notificationReceived: (method, params, transport) =>
        method === 'notifications/cancelled' &&
        (!isObject(params) || params.requestId === undefined) &&
        transport === 'stdio'
          ? { kind: 'send', messages: [NO_SUCH_REQUEST], status: 400, stream: false }
          : undefined,
    },
  },
]);
