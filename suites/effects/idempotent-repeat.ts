import type { CheckContext, EffectsLog, Exchange, Outcome } from '../kit/index.js';
import { toolEvidence, type ListedTool } from '../kit/listed-tools.js';
import { fail, pass, skip, timedOutReason } from '../kit/outcome.js';
import {
  answeredWithoutError,
  describeEffects,
  effectsNote,
  hintOf,
  nameList,
  NOT_SANDBOXED,
  toolsWith,
} from './effects-kit.js';

const CLAIM = 'idempotentHint: true';

type Repeat = { judged: true; outcome?: Outcome } | { judged: false; why: string };

const argumentText = (args: unknown): string => {
  const text = JSON.stringify(args) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

/** Calls the tool twice with arguments an earlier call of it completed with; the second call must change nothing. */
async function repeatOne(
  ctx: CheckContext,
  log: EffectsLog,
  t: ListedTool,
  name: string,
  why: string,
): Promise<Repeat> {
  if (!ctx.mayCall(t.tool)) return { judged: false, why: ctx.notCalledReason(t.tool) };
  const timedOut = ctx.timedOutCall(name);
  if (timedOut) return { judged: false, why: timedOutReason(timedOut) };
  const earlier = log.calls().filter((call) => call.tool === name);
  const model = earlier.find((call) => answeredWithoutError(call.exchange));
  if (!model) {
    return {
      judged: false,
      why:
        earlier.length === 0
          ? 'it was not called earlier in this audit, so no arguments are known to work'
          : `none of its ${earlier.length} earlier call(s) was answered without error, so no arguments are known ` +
            `to work`,
    };
  }
  const first = await ctx.callTool(name, model.arguments);
  const second: Exchange | undefined = first.failure ? undefined : await ctx.callTool(name, model.arguments);
  const failed = first.failure ?? second?.failure;
  if (!second || failed)
    return { judged: false, why: `a repeated call did not complete (${failed?.message ?? 'no answer'})` };
  const record = log.of(second);
  if (!record) return { judged: false, why: `the effects of call #${second.seq} were not recorded` };
  if (record.effects.length === 0) return { judged: true };
  const firstRecord = log.of(first);
  return {
    judged: true,
    outcome: {
      ...fail(
        `${name} is annotated ${CLAIM}, yet called twice in a row with the arguments ` +
          `${argumentText(model.arguments)} ` +
          `(of its earlier call #${model.exchange.seq}), the second call #${second.seq} changed ` +
          `${describeEffects(record.effects)}: ${why}`,
        'a second call with the same arguments changes nothing more (the first may change things); ' +
          'a tool whose every call writes is annotated idempotentHint: false (the default)',
        toolEvidence(t, [
          first,
          ...(firstRecord ? [effectsNote(first, firstRecord.effects)] : []),
          second,
          effectsNote(second, record.effects),
        ]),
      ),
      tool: name,
    },
  };
}

/** tools.annotations.idempotent-honest: each tool annotated idempotent (and not read-only) is called twice in a row. */
export async function repeatIdempotentTools(ctx: CheckContext, why: string): Promise<Outcome[]> {
  const log = ctx.effects;
  if (!log) return [skip(NOT_SANDBOXED)];
  // The description: "meaningful only when readOnlyHint == false".
  const tools = await toolsWith(ctx, (t) => hintOf(t, 'idempotentHint') === true && hintOf(t, 'readOnlyHint') !== true);
  if (tools.size === 0) return [skip(`no listed tool is annotated ${CLAIM} (and not readOnlyHint: true)`)];
  const failures: Outcome[] = [];
  const notJudged: { tool: string; why: string }[] = [];
  let judged = 0;
  for (const [name, t] of tools) {
    const repeat = await repeatOne(ctx, log, t, name, why);
    if (!repeat.judged) notJudged.push({ tool: name, why: repeat.why });
    else if (repeat.outcome) failures.push(repeat.outcome);
    else judged += 1;
  }
  const skips = notJudged.map((n) => ({ ...skip(`not repeated: ${n.why}`), tool: n.tool }));
  if (failures.length === 0 && judged === 0) {
    const whys = notJudged.map((n) => `${n.tool}: ${n.why}`).join('; ');
    return [
      skip(`${tools.size} tool(s) annotated ${CLAIM} (${nameList(tools.keys())}), none could be repeated: ${whys}`),
    ];
  }
  if (failures.length > 0) return [...failures, ...skips];
  const passed =
    `${judged * 2} call(s) of ${judged} tool(s) annotated ${CLAIM} judged (each called twice in a row, ` +
    `same arguments)`;
  return [pass(`${passed}: no second call changed a file`), ...skips];
}
