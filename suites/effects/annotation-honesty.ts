import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  compareRevisions,
  type FileEffect,
  type Outcome,
  type RecordedCall,
  type Revision,
} from '../kit/index.js';
import { toolEvidence, type ListedTool } from '../kit/listed-tools.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { perRevision, since } from '../kit/same-sentences.js';
import {
  describeEffects,
  effectsNote,
  hintDescription,
  hintOf,
  nameList,
  NOT_SANDBOXED,
  toolsWith,
} from './effects-kit.js';
import { repeatIdempotentTools } from './idempotent-repeat.js';

/** Tool annotations, and so these hints, arrived with 2025-03-26. */
const ANNOTATED = since('2025-03-26');

const HOSTS_AUTO_APPROVE = 'hosts auto-approve calls of tools annotated';

interface RecordedJudgement {
  /** The claim, as the annotation says it: `readOnlyHint: true`. */
  claim: string;
  applies(t: ListedTool): boolean;
  /** The changes of one call that break the claim. */
  breaking(call: RecordedCall): FileEffect[];
  /** What the broken claim lets through, after "hosts auto-approve calls of tools annotated …". */
  why: string;
  expected: string;
}

/** Judges every recorded call of the tools that carry the claim: one warning per tool whose calls break it. */
async function judgeRecordedCalls(ctx: CheckContext, judgement: RecordedJudgement): Promise<Outcome[]> {
  const log = ctx.effects;
  if (!log) return [skip(NOT_SANDBOXED)];
  const tools = await toolsWith(ctx, judgement.applies);
  if (tools.size === 0) return [skip(`no listed tool is annotated ${judgement.claim}`)];
  const calls = log.calls().filter((call) => tools.has(call.tool));
  if (calls.length === 0) {
    return [
      skip(`${tools.size} tool(s) annotated ${judgement.claim} (${nameList(tools.keys())}), none of them was called`),
    ];
  }
  const outcomes: Outcome[] = [];
  for (const [name, t] of tools) {
    const own = calls.filter((call) => call.tool === name);
    const broken = own.filter((call) => judgement.breaking(call).length > 0);
    const first = broken[0];
    if (!first) continue;
    const changes = judgement.breaking(first);
    const share = own.length > 1 ? ` (${broken.length} of its ${own.length} calls did)` : '';
    outcomes.push({
      ...fail(
        `${name} is annotated ${judgement.claim}, yet its call #${first.exchange.seq} changed ` +
          `${describeEffects(changes)}${share}: ` +
          `${HOSTS_AUTO_APPROVE} ${judgement.why}`,
        judgement.expected,
        toolEvidence(t, [first.exchange, effectsNote(first.exchange, changes)]),
      ),
      tool: name,
    });
  }
  if (outcomes.length > 0) return outcomes;
  const called = new Set(calls.map((call) => call.tool)).size;
  return [pass(`${calls.length} call(s) of ${called} tool(s) annotated ${judgement.claim} judged: none broke it`)];
}

export const readOnlyHonest: CheckDefinition = defineCheck({
  id: 'tools.annotations.read-only-honest',
  title:
    'A tool annotated readOnlyHint: true changes no file when called (judged from the effects of a sandboxed audit)',
  area: 'annotations',
  sentences: perRevision(ANNOTATED, (wire) => [
    hintDescription(wire, 'readOnlyHint', 'If true, the tool does not modify its environment.'),
  ]),
  phase: 'final',
  run: (ctx) =>
    judgeRecordedCalls(ctx, {
      claim: 'readOnlyHint: true',
      applies: (t) => hintOf(t, 'readOnlyHint') === true,
      breaking: (call) => call.effects,
      why: 'read-only, so a change like this goes through without the user confirming it',
      expected:
        'no file created, changed or deleted while the tool runs; a tool that writes is annotated ' +
        'readOnlyHint: false (the default)',
    }),
});

/**
 * A change that lost what an existing entry held: a deletion, a replacement by another kind of entry, or a file that
 * shrank. A file that grew may have only gained (a store rewritten whole, a database), and a folder that changed only
 * gained or lost entries, which their own effects show.
 */
function lostData(effect: FileEffect): boolean {
  if (effect.kind === 'deleted') return true;
  if (effect.kind !== 'modified' || effect.type === 'directory') return false;
  return effect.sizeBefore === undefined || effect.size === undefined || effect.size < effect.sizeBefore;
}

export const destructiveHonest: CheckDefinition = defineCheck({
  id: 'tools.annotations.destructive-honest',
  title:
    'A tool annotated destructiveHint: false deletes, replaces or shrinks no existing file (judged from the ' +
    'effects of a sandboxed audit)',
  area: 'annotations',
  sentences: perRevision(ANNOTATED, (wire) => [
    hintDescription(
      wire,
      'destructiveHint',
      'If true, the tool may perform destructive updates to its environment. If false, the tool performs only ' +
        'additive updates.',
    ),
  ]),
  phase: 'final',
  run: (ctx) =>
    judgeRecordedCalls(ctx, {
      claim: 'destructiveHint: false',
      // The description: "meaningful only when readOnlyHint == false".
      applies: (t) => hintOf(t, 'destructiveHint') === false && hintOf(t, 'readOnlyHint') !== true,
      breaking: (call) => call.effects.filter(lostData),
      why: 'non-destructive, so a loss like this goes through without the user confirming it',
      expected:
        'only additive changes from a tool annotated destructiveHint: false (new files, files that grow); ' +
        'a tool that deletes, replaces or shrinks existing files is annotated destructiveHint: true (the default)',
    }),
});

/** 2025-03-26 and 2025-06-18 read "on the its environment". */
const idempotentText = (wire: Revision): string =>
  'If true, calling the tool repeatedly with the same arguments will have no additional effect on ' +
  `${compareRevisions(wire, '2025-11-25') >= 0 ? '' : 'the '}its environment.`;

export const idempotentHonest: CheckDefinition = defineCheck({
  id: 'tools.annotations.idempotent-honest',
  title:
    'A tool annotated idempotentHint: true, called again with the same arguments, changes no file again ' +
    '(sandboxed audit)',
  area: 'annotations',
  sentences: perRevision(ANNOTATED, (wire) => [hintDescription(wire, 'idempotentHint', idempotentText(wire))]),
  phase: 'final',
  run: (ctx) =>
    repeatIdempotentTools(
      ctx,
      `${HOSTS_AUTO_APPROVE} idempotent, and may repeat their calls, so each repeat changes files again ` +
        `without the user confirming it`,
    ),
});

export const ANNOTATION_HONESTY_CHECKS = [readOnlyHonest, destructiveHonest, idempotentHonest] as const;
