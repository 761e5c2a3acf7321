import { defineDefects, LIST_CHANGED_TRIGGER_ARGS } from './define.js';

/** Defects that the checks of suites/subscriptions/ catch, each breaking one of them. */
export const SUBSCRIPTIONS_DEFECTS = defineDefects([
  {
    name: 'listen-no-ack',
    breaks: 'subs.ack.first',
    description: 'subscriptions/listen opens the stream but never sends notifications/subscriptions/acknowledged',
    at: {
      listenOpening: (listen) => {
        listen.acknowledgement = null;
      },
    },
  },
  {
    name: 'ack-superset',
    breaks: 'subs.ack.subset',
    description:
      'the acknowledgement also grants promptsListChanged, which was not requested (and the server has no prompts)',
    at: {
      listenOpening: ({ acknowledgement }) => {
        if (acknowledgement) acknowledgement.notifications.promptsListChanged = true;
      },
    },
  },
  {
    name: 'subscription-id-as-string',
    breaks: 'meta.notif.subscription-id',
    description: 'the acknowledgement carries the listen id as a string ("7" for the numeric id 7)',
    at: {
      listenOpening: ({ acknowledgement }) => {
        if (acknowledgement) acknowledgement.subscriptionId = String(acknowledgement.subscriptionId);
      },
    },
  },
  {
    name: 'no-list-changed-notification',
    breaks: 'tools.listchanged.notify',
    description: 'toggle_beta_tools changes the tool set but no notifications/tools/list_changed is sent',
    auditArgs: LIST_CHANGED_TRIGGER_ARGS,
    at: { toolsListChangedSent: () => false },
  },
  {
    name: 'list-changed-to-all',
    breaks: 'subs.no-unrequested',
    description:
      'notifications/tools/list_changed goes to every open subscription, also those that did not ask for ' +
      'toolsListChanged',
    auditArgs: LIST_CHANGED_TRIGGER_ARGS,
    at: { toolsListChangedSent: () => true },
  },
]);
