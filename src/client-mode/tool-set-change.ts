import { canonicalJson } from '../core/canonical-json.js';

/**
 * How long a listing stays fresh (ttlMs) while a listen subscription is open: only a notification can make it stale.
 */
export const LISTEN_TTL_MS = 3_600_000;
/** How much later the call that set the change off is answered: time for the client to take the notification in. */
export const CHANGE_SETTLE_MS = 200;

export type NotificationSink = (notification: Record<string, unknown>) => void;

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/**
 * The listen scenario's one change of the tool set. While a subscription asking for toolsListChanged is open, listings
 * are fresh for an hour. When the client calls the last listed tool (a driver calls them in listing order, once
 * each), one tool appears and every such subscription gets notifications/tools/list_changed, before that call is
 * answered: so the change never overlaps the other calls (a client re-listing meanwhile may forget its annotations),
 * and the driver's second listing comes after it. Without a subscription nothing changes and listings carry ttlMs 0.
 */
export class ToolSetChange {
  private readonly open = new Map<string, { id: unknown; sink: NotificationSink }>();
  changed = false;

  constructor(private readonly enabled: boolean) {}

  /** A `subscriptions/listen` request: its acknowledgment (the filter this server honours), to send first. */
  opened(id: unknown, requested: unknown, sink: NotificationSink): Record<string, unknown> {
    const wantsTools =
      this.enabled &&
      typeof requested === 'object' &&
      requested !== null &&
      (requested as Record<string, unknown>).toolsListChanged === true;
    if (wantsTools) this.open.set(canonicalJson(id), { id, sink });
    return {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_ID]: id }, notifications: wantsTools ? { toolsListChanged: true } : {} },
    };
  }

  closed(id: unknown): void {
    this.open.delete(canonicalJson(id));
  }

  /** The ttlMs of the pages of a walk that begins now. */
  walkTtlMs(): number {
    return this.open.size > 0 ? LISTEN_TTL_MS : 0;
  }

  /** The last listed tool was called: the set changes once, and says so. Whether it did (its answer then waits). */
  lastToolCalled(): boolean {
    if (this.changed || this.open.size === 0) return false;
    this.changed = true;
    for (const { id, sink } of this.open.values())
      sink({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_ID]: id } },
      });
    return true;
  }
}
