import { isObject, type JsonRpcId } from '../../src/core/jsonrpc.js';
import { notification, type OutgoingMessage } from './messages.js';
import { invalidParams } from './protocol-error.js';

export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/**
 * The filter fields of SubscriptionFilter this server honours: only tool-list changes (it has no prompts or resources).
 */
export interface AgreedFilter {
  toolsListChanged?: true;
}

interface Subscription {
  id: JsonRpcId;
  /** Whether the stream is sent notifications/tools/list_changed. */
  toolsListChanged: boolean;
  send(message: OutgoingMessage): void;
}

/** The open subscriptions/listen streams of one server state (a stdio process, or the whole HTTP server). */
export class SubscriptionRegistry {
  private readonly open = new Map<string, Subscription>();

  add(id: JsonRpcId, toolsListChanged: boolean, send: (message: OutgoingMessage) => void): () => void {
    const key = JSON.stringify(id);
    const subscription = { id, toolsListChanged, send };
    this.open.set(key, subscription);
    return () => {
      if (this.open.get(key) === subscription) this.open.delete(key);
    };
  }

  /** A client's notifications/cancelled for a listen id ends that stream (stdio). */
  cancel(requestId: unknown): void {
    this.open.delete(JSON.stringify(requestId));
  }

  /** The tool set changed: notifications/tools/list_changed on every stream that is sent them. */
  toolsChanged(): void {
    for (const subscription of this.open.values()) {
      if (!subscription.toolsListChanged) continue;
      subscription.send(
        notification('notifications/tools/list_changed', { _meta: { [SUBSCRIPTION_ID]: subscription.id } }),
      );
    }
  }
}

/** Reads SubscriptionsListenRequestParams.notifications and keeps the part this server honours. */
export function agreedFilter(params: Record<string, unknown>): AgreedFilter {
  const requested = params.notifications;
  if (!isObject(requested)) throw invalidParams('Invalid params: subscriptions/listen needs a "notifications" object');
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (requested[flag] !== undefined && typeof requested[flag] !== 'boolean') {
      throw invalidParams(`Invalid params: notifications.${flag} must be a boolean`);
    }
  }
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined && !(Array.isArray(uris) && uris.every((u) => typeof u === 'string'))) {
    throw invalidParams('Invalid params: notifications.resourceSubscriptions must be an array of strings');
  }
  return requested.toolsListChanged === true ? { toolsListChanged: true } : {};
}

/** notifications/subscriptions/acknowledged: the subscription's id and the notifications the stream is granted. */
export function acknowledgement(subscriptionId: JsonRpcId, notifications: Record<string, unknown>): OutgoingMessage {
  return notification('notifications/subscriptions/acknowledged', {
    _meta: { [SUBSCRIPTION_ID]: subscriptionId },
    notifications,
  });
}
