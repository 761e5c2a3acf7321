import type { CheckContext } from '../../src/runner/context.js';

/**
 * Sends a check's probes and returns their answers in the probes' order: one after another where every answer comes on
 * one channel (an error answer with a null id is tied to its probe only while no other is in flight), all at once over
 * Streamable HTTP, where each POST carries its own answer.
 */
export async function sendProbes<T, R>(
  ctx: CheckContext,
  probes: readonly T[],
  send: (probe: T) => Promise<R>,
): Promise<R[]> {
  if (ctx.transportKind === 'http') return Promise.all(probes.map(send));
  const answers: R[] = [];
  for (const probe of probes) answers.push(await send(probe));
  return answers;
}
