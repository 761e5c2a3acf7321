import {
  type CheckContext,
  effectPlace,
  errorOf,
  type Evidence,
  type Exchange,
  type FileEffect,
  isObject,
  resultOf,
  type SpecSentence,
  type Revision,
} from '../kit/index.js';
import { listedTools, type ListedTool } from '../kit/listed-tools.js';
import { note } from '../kit/outcome.js';
import { schemaRule } from '../kit/same-sentences.js';

export type Hint = 'readOnlyHint' | 'destructiveHint' | 'idempotentHint';

export const NOT_SANDBOXED = 'file effects are recorded only in a sandboxed audit (--sandbox)';

/** A hint's description in schema.json: it describes what the hint claims and obliges nobody, so it warns at most. */
export const hintDescription = (wire: Revision, hint: Hint, text: string): SpecSentence => ({
  ...schemaRule(wire, `ToolAnnotations/properties/${hint}/description`, text),
  keyword: 'descriptive',
});

/** The hint as the tool's annotations state it (undefined when absent or not an object). */
export const hintOf = (t: ListedTool, hint: Hint): unknown =>
  isObject(t.tool.annotations) ? t.tool.annotations[hint] : undefined;

/** The named listed tools `applies` selects, by name (a name listed twice counts once, as first listed). */
export async function toolsWith(
  ctx: CheckContext,
  applies: (t: ListedTool) => boolean,
): Promise<Map<string, ListedTool>> {
  const tools = new Map<string, ListedTool>();
  for (const t of await listedTools(ctx)) {
    if (typeof t.tool.name === 'string' && !tools.has(t.tool.name) && applies(t)) tools.set(t.tool.name, t);
  }
  return tools;
}

export const nameList = (names: Iterable<string>, max = 5): string => {
  const all = [...names];
  return all.length > max ? `${all.slice(0, max).join(', ')} and ${all.length - max} more` : all.join(', ');
};

function describeEffect(effect: FileEffect): string {
  const where = effectPlace(effect);
  const kind = effect.type === 'file' ? effect.kind : `${effect.kind} ${effect.type}`;
  const size =
    effect.size === undefined
      ? ''
      : effect.kind === 'deleted'
        ? `, was ${effect.size} bytes`
        : `, ${effect.size} bytes`;
  return `${where} (${kind}${size})`;
}

/** A few changes in words: `$TMPDIR/a.log (created, 12 bytes), … and 4 more`. */
export function describeEffects(effects: readonly FileEffect[], max = 3): string {
  const shown = effects.slice(0, max).map(describeEffect).join(', ');
  return effects.length > max ? `${shown} and ${effects.length - max} more` : shown;
}

/** The effects as data, for the evidence (bounded: a tool may write thousands of files). */
export function effectsNote(exchange: Exchange, effects: readonly FileEffect[]): Evidence {
  const cut = effects.length > 50 ? ` (first 50 of ${effects.length})` : '';
  return note(`file changes while call #${exchange.seq} was in flight${cut}`, effects.slice(0, 50));
}

/**
 * A call the tool answered with a completed result: no transport failure, no JSON-RPC error, no isError: true. An
 * input_required result is left out too: the tool asked for input and did not run yet.
 */
export function answeredWithoutError(exchange: Exchange): boolean {
  if (exchange.failure || errorOf(exchange.response)) return false;
  const result = resultOf(exchange.response);
  return result !== undefined && result.isError !== true && result.resultType !== 'input_required';
}
