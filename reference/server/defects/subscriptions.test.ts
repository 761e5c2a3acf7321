import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { SUBSCRIPTIONS_DEFECTS } from './subscriptions.js';
import { showsEachDeviation, listed, listen, toggleBeta, SUBSCRIPTION_KEY } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'listen-no-ack': (ctx) => {
    const { ack, stream } = listen(ctx, 7, { toolsListChanged: true });
    expect(ack).toBeUndefined();
    toggleBeta(ctx);
    expect(stream.map((m) => m.method)).toEqual(['notifications/tools/list_changed']);
  },
  'ack-superset': (ctx) => {
    expect(listen(ctx, 7, { toolsListChanged: true }).ack!.params.notifications).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
    });
  },
  'subscription-id-as-string': (ctx) => {
    const { ack, stream } = listen(ctx, 7, { toolsListChanged: true });
    expect(ack!.params._meta[SUBSCRIPTION_KEY]).toBe('7');
    toggleBeta(ctx);
    expect(stream[0]!.params._meta[SUBSCRIPTION_KEY]).toBe(7);
  },
  'no-list-changed-notification': (ctx) => {
    const { stream } = listen(ctx, 7, { toolsListChanged: true });
    toggleBeta(ctx);
    expect(listed(ctx).map((tool) => tool.name)).toContain('beta_forecast');
    expect(stream).toEqual([]);
  },
  'list-changed-to-all': (ctx) => {
    const subscriber = listen(ctx, 7, { toolsListChanged: true });
    const bystander = listen(ctx, 8, { promptsListChanged: true });
    toggleBeta(ctx);
    expect(subscriber.stream).toHaveLength(1);
    expect(bystander.stream.map((m) => [m.method, m.params._meta[SUBSCRIPTION_KEY]])).toEqual([
      ['notifications/tools/list_changed', 8],
    ]);
  },
};

showsEachDeviation(SUBSCRIPTIONS_DEFECTS, DEVIATIONS);
