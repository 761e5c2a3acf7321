import { TargetGoneError } from '../protocol/errors.js';
import { specUrl } from '../spec-links.js';
import { BudgetSpentError } from '../transport/request-gate.js';
import type { CheckContext } from './context.js';
import { excuseLateAnswers } from './late-verdicts.js';
import { pool } from './pool.js';
import { isPending, type CheckDefinition, type JudgedCheck, type Pending } from './types.js';
import {
  keywordClass,
  keywordLabel,
  restingSentence,
  revisionsOf,
  type CheckResult,
  type Evidence,
  type Outcome,
  type Status,
} from '../model/check.js';
import type { Revision } from '../core/revision.js';

/** What the runner tells its caller; how many checks run at once and the deadline are the context's options. */
export interface RunnerOptions {
  onResult?(result: CheckResult): void;
  /** A check begins running (after its applicability and the budget were decided). */
  onStart?(checkId: string): void;
}

export interface RunnerOutput {
  results: CheckResult[];
  aborted?: { reason: string; duringCheck?: string };
  /** Set when the --max-duration budget ran out: checks were skipped or stopped waiting for their turn to send. */
  cutShort?: { reason: string; checksSkipped: number };
}

const BUDGET_USED_UP = 'the --max-duration budget was used up';

/** Why a check does not apply here, or undefined when it does. */
export function inapplicable(
  check: CheckDefinition,
  ctx: Pick<CheckContext, 'revision' | 'transportKind'>,
): string | undefined {
  if (!revisionsOf(check).includes(ctx.revision))
    return `the requirement does not exist on the ${ctx.revision} wire: no sentence of its pages backs this check`;
  if (check.needs?.includes('http') && ctx.transportKind !== 'http') {
    return ctx.transportKind === 'http+sse'
      ? 'needs the Streamable HTTP transport (this target speaks the deprecated HTTP+SSE transport of 2024-11-05)'
      : 'needs the Streamable HTTP transport (--url)';
  }
  if (check.needs?.includes('stdio') && ctx.transportKind !== 'stdio') return 'needs the stdio transport (--stdio)';
  if (ctx.transportKind === 'snapshot' && check.needs?.some((n) => n === 'live' || n === 'tool-call')) {
    return 'needs a live target (this run reads a snapshot)';
  }
  return undefined;
}

/**
 * Runs main-phase checks concurrently, then the serial ones (in turn, but over Streamable HTTP), then the searches
 * concurrently, then the final and last ones in turn; a vanished target ends the run. The searches come after every
 * scripted check, so a slow search never starves one. A check that hands back a pending verdict (a quiet window, a
 * connection of its own) does not hold up the checks after it while they overlap: its verdict is collected before the
 * final phase, or at the end.
 */
export async function runChecks(
  checks: readonly CheckDefinition[],
  ctx: CheckContext,
  options: RunnerOptions,
): Promise<RunnerOutput> {
  let aborted: RunnerOutput['aborted'];
  let cutShort: { reason: string } | undefined;
  // Checks skipped for budget: not started by the deadline, or stopped waiting for their turn to send.
  let budgetSkips = 0;
  // Results are emitted in registry order as soon as every earlier check is done: live, yet deterministic.
  const finished: (CheckResult[] | undefined)[] = checks.map(() => undefined);
  let nextToEmit = 0;
  const complete = (index: number, results: CheckResult[]) => {
    finished[index] = results;
    while (nextToEmit < checks.length && finished[nextToEmit]) {
      for (const r of finished[nextToEmit]!) options.onResult?.(r);
      nextToEmit += 1;
    }
  };

  /**
   * A check's outcomes, or its pending verdict; what it threw becomes an outcome (`ranThrough` false), and a lost
   * target ends the run.
   */
  const attempt = async <T extends Outcome[] | Pending>(
    check: CheckDefinition,
    work: () => Promise<T> | T,
  ): Promise<{ value: T; ranThrough: true } | { value: Outcome[]; ranThrough: false }> => {
    try {
      return { value: await work(), ranThrough: true };
    } catch (error) {
      if (error instanceof TargetGoneError && !aborted) {
        aborted = { reason: `${goneVerb(error)} during ${check.id}: ${error.message}`, duringCheck: check.id };
      }
      if (!(error instanceof BudgetSpentError))
        return { value: [failureOutcome(check, error, ctx)], ranThrough: false };
      cutShort = { reason: error.message };
      budgetSkips += 1;
      return { value: [{ status: 'skip', message: `not finished: ${error.message}` }], ranThrough: false };
    }
  };

  const finish = async (index: number, started: number, outcomes: Outcome[], ranThrough: boolean): Promise<void> => {
    const check = checks[index]!;
    if (outcomes.length === 0) outcomes = [{ status: 'skip', message: 'nothing to check on this target' }];
    if (!check.judgesLateAnswers) outcomes = await excuseLateAnswers(outcomes);
    // A check may record the exchange that lost the target as evidence and return normally: the run still stops here.
    // Only the check that holds the losing exchange is blamed; a concurrent check that merely finished later is not.
    const gone = ctx.client.goneError;
    if (gone && !aborted && outcomes.some((o) => o.status === 'error' || o.evidence?.includes(gone.exchange))) {
      aborted = { reason: `${goneVerb(gone)} during ${check.id}: ${gone.message}`, duringCheck: check.id };
    }
    const elapsed = performance.now() - started;
    const starved =
      ranThrough &&
      check.needs?.includes('tool-call') === true &&
      outcomes.every((o) => o.status === 'skip') &&
      (await ctx.noCallableTool());
    complete(
      index,
      outcomes.map((outcome) => ({
        ...toResult(check, outcome, elapsed / outcomes.length, ctx.revision),
        ...(starved ? { skippedFor: 'no-callable-tool' as const } : {}),
      })),
    );
  };

  const concurrency = Math.max(1, ctx.options.concurrency ?? 1);
  // Pending verdicts the phases go on without (only while checks overlap), collected at the next collection point.
  const waiting: Promise<void>[] = [];
  const collect = async () => {
    while (waiting.length > 0) await Promise.all(waiting.splice(0));
  };

  const runOne = async (index: number): Promise<void> => {
    const check = checks[index]!;
    const single = (outcome: Outcome) => complete(index, [toResult(check, outcome, 0, ctx.revision)]);
    const notApplicable = inapplicable(check, ctx);
    if (notApplicable) return single({ status: 'skip', message: notApplicable });
    if (aborted) return single({ status: 'skip', message: `not run: ${aborted.reason}` });
    const deadline = ctx.options.deadline;
    if (deadline !== undefined && Date.now() > deadline) {
      cutShort ??= { reason: BUDGET_USED_UP };
      budgetSkips += 1;
      return single({ status: 'skip', message: `not run: ${BUDGET_USED_UP}` });
    }
    const started = performance.now();
    options.onStart?.(check.id);
    const ran = await attempt(check, () => check.run(ctx));
    if (!ran.ranThrough || !isPending(ran.value)) return finish(index, started, ran.value as Outcome[], ran.ranThrough);
    const pending = ran.value;
    const verdict = attempt(check, () => pending.verdict).then((r) => finish(index, started, r.value, r.ranThrough));
    if (concurrency === 1) return verdict;
    waiting.push(verdict);
  };

  for (const check of checks) if (inapplicable(check, ctx) === undefined) check.prepare?.(ctx);
  const indexes = checks.map((_, i) => i);
  await pool(
    indexes.filter((i) => (checks[i]!.phase ?? 'main') === 'main'),
    concurrency,
    runOne,
  );
  // One at a time where every answer comes on one channel; over Streamable HTTP each POST carries its own answer, so
  // the serial checks' probes may overlap (on the pool's connections) like the main ones.
  await pool(
    indexes.filter((i) => checks[i]!.phase === 'serial'),
    ctx.transportKind === 'http' ? concurrency : 1,
    runOne,
  );
  await pool(
    indexes.filter((i) => checks[i]!.phase === 'search'),
    concurrency,
    runOne,
  );
  // The final checks look at everything recorded, and may use what a pending verdict had to itself.
  await collect();
  for (const phase of ['final', 'last'] as const) {
    for (const i of indexes.filter((i) => checks[i]!.phase === phase)) await runOne(i);
  }
  await collect();
  const lost = ctx.client.goneError;
  if (lost && !aborted) aborted = { reason: `${goneVerb(lost)}: ${lost.message}` };
  const skippedNote = `${budgetSkips} check(s) skipped for budget`;
  return {
    results: finished.flatMap((r) => r ?? []),
    aborted,
    ...(cutShort ? { cutShort: { reason: `${cutShort.reason}: ${skippedNote}`, checksSkipped: budgetSkips } } : {}),
  };
}

function goneVerb(error: TargetGoneError): string {
  if (error.exchange.failure?.kind === 'rate-limited') return 'the target refused further requests';
  if (error.unansweredRequest !== undefined)
    return 'the target stopped answering while it waited on a request of its own';
  return 'the target stopped answering';
}

function failureOutcome(check: CheckDefinition, error: unknown, ctx: CheckContext): Outcome {
  if (error instanceof TargetGoneError) {
    const noise = ctx
      .strays()
      .filter((s) => s.kind === 'non-json')
      .slice(-5);
    const evidence: Evidence[] = [error.exchange];
    if (noise.length > 0)
      evidence.push({ note: 'the target wrote these non-JSON lines to stdout', data: noise.map((n) => n.data) });
    const stderr = ctx.targetStderr().trim();
    if (stderr)
      evidence.push({
        note: 'the last lines the target wrote to stderr',
        data: stderr.split('\n').slice(-10).join('\n'),
      });
    return { status: 'error', message: `${goneVerb(error)}: ${error.message}`, evidence };
  }
  return internalErrorOutcome(check.id, error);
}

/** Our own bug, not the target's: a check that threw. */
export function internalErrorOutcome(checkId: string, error: unknown): Outcome {
  const err = error as Error;
  return {
    status: 'error',
    message: `internal error in check ${checkId}: ${err?.message ?? String(error)}`,
    evidence: [{ note: 'stack', data: err?.stack?.split('\n').slice(0, 8).join('\n') }],
  };
}

/**
 * A check's outcome as reported on one wire: keyword, quote and spec reference come from the sentence the verdict
 * rests on there, so a `fail` only ever stands on a MUST-class sentence of the wire in use.
 */
export function toResult(check: JudgedCheck, outcome: Outcome, durationMs: number, wire: Revision | null): CheckResult {
  const sentence = wire ? restingSentence(check, outcome, wire) : undefined;
  const keywordText = sentence?.keyword ?? check.keyword;
  const keyword = keywordClass(keywordText);
  let status: Status = outcome.status;
  if (status === 'fail' && keyword !== 'MUST') status = 'warn';
  const evidence: Evidence[] = outcome.evidence ?? [];
  return {
    id: check.id,
    title: check.title,
    keyword,
    keywordText,
    keywordLabel: keywordLabel(keywordText),
    area: check.area,
    specRef: sentence?.ref ?? check.specRef,
    specUrl: specUrl(sentence?.ref ?? check.specRef, wire),
    ...(sentence ? { quote: sentence.text } : {}),
    status,
    message: outcome.message,
    ...(outcome.expected !== undefined ? { expected: outcome.expected } : {}),
    ...(outcome.tool !== undefined ? { tool: outcome.tool } : {}),
    evidence,
    ...(outcome.replay !== undefined ? { replay: outcome.replay } : {}),
    durationMs: Math.round(durationMs * 1000) / 1000,
  };
}

export function summarize(results: readonly CheckResult[]): Record<Status, number> {
  const summary: Record<Status, number> = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const r of results) summary[r.status] += 1;
  return summary;
}
