import {
  type Arguments,
  type ArgumentSource,
  canonicalJson,
  type CheckContext,
  DEFAULT_PROPERTY_OPTIONS,
  DEFAULT_RUNS,
  derivedSeed,
  type Evidence,
  type Exchange,
  formatReplayToken,
  isObject,
  Limiter,
  type Outcome,
  prepareSource,
  type PropertyOptions,
  type PropertySpec,
  search,
  type SearchResult,
  shellQuote,
  SLOW_SEARCH,
  type SlowStop,
} from '../kit/index.js';
import { listedTools, type ListedTool } from '../kit/listed-tools.js';
import { note, pass, skip, timedOutReason } from '../kit/outcome.js';

export function propertyOptions(ctx: CheckContext): PropertyOptions {
  return ctx.options.property ?? DEFAULT_PROPERTY_OPTIONS;
}

/** One in-flight bound shared by every property check of the run. */
function limiter(ctx: CheckContext): Promise<Limiter> {
  return ctx.memo('property-limiter', async () => new Limiter(Math.max(1, propertyOptions(ctx).concurrency)));
}

export const shownArgs = (args: unknown): string => {
  const text = JSON.stringify(args) ?? 'undefined';
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
};

/**
 * Another call of the tool being searched, for a property that needs one to judge a case (through the same in-flight
 * bound); a call in a named case stream is shared with the checks of that stream. Undefined once the search's time is
 * up.
 */
export type ToolCall = (args: Arguments, stream?: string) => Promise<Exchange | undefined>;

/** How a check searches one tool: a skip reason, or the property to search. */
export type ToolProperty<Case> = (t: ListedTool, source: ArgumentSource, call: ToolCall) => PropertySpec<Case> | string;

export interface SearchCheck<Case> {
  id: string;
  /** What a failure was expected to be instead. */
  expected: string;
  /** What every passing case showed, e.g. "answered with a result". */
  passed: string;
  property: ToolProperty<Case>;
  /** Only these tools are searched (default: every callable tool); `none` is the skip reason when no tool applies. */
  applies?: { to(t: ListedTool): boolean; none: string };
  /** Extra evidence for a failing case (the mutation that made it invalid, for instance). */
  describe?(c: Case): Evidence[];
  /**
   * Why this tool is not searched because the scripted check already reports it (its one fixed sample breaks the same
   * rule): each violation is reported once, by the scripted check when a single probe shows it, else by the search.
   */
  reportedBy?(ctx: CheckContext, t: ListedTool): Promise<string | undefined>;
  /** The cases derive from valid values alone (no mutation), so a schema admitting one value needs one case. */
  validOnly?: boolean;
  /**
   * Checks naming the same stream draw the same cases (one seed per tool for all of them) and share each call: a case
   * already sent, or in flight, for another check of the stream is judged from that exchange instead of sent again.
   */
  caseStream?: string;
  /** Remarks for the pass message, gathered while judging (e.g. -32602 answers). */
  remarks?(): string;
  /**
   * What a search that found no failure still says about a tool, from what it saw while judging: outcomes of its own
   * (a warning, or a skip saying why nothing could be shown), and whether the tool counts toward the pass.
   */
  settle?(t: ListedTool): { outcomes: Outcome[]; counted: boolean };
}

export function replayLine(ctx: CheckContext, checkId: string, t: ListedTool, path: string): string {
  const options = propertyOptions(ctx);
  const tool = t.tool.name as string;
  const readOnly = isObject(t.tool.annotations) && t.tool.annotations.readOnlyHint === true;
  const allow = readOnly ? '' : ` --allow-tools ${shellQuote(tool)}`;
  return (
    `${options.commandLine}${allow} --checks ${checkId} --seed ${options.seed} --replay ` +
    `${shellQuote(formatReplayToken({ tool, path }))}`
  );
}

function failureOutcome<Case>(
  ctx: CheckContext,
  check: SearchCheck<Case>,
  t: ListedTool,
  result: SearchResult<Case>,
): Outcome {
  const failure = result.failure!;
  const { original, shrunk } = failure;
  const stopped = failure.shrinkStopped
    ? `; shrinking stopped after ${failure.shrinkStopped.calls} call(s): ${failure.shrinkStopped.why}`
    : '';
  const found = ctx.options.property?.replay
    ? 'replayed'
    : `found after ${result.cases} case(s), shrunk in ${failure.shrinks} step(s)${stopped}`;
  const evidence: Evidence[] = [
    note('shrunk counterexample (arguments sent)', shrunk.args),
    ...(check.describe?.(shrunk.value) ?? []),
    shrunk.exchange,
  ];
  if (original.exchange.seq !== shrunk.exchange.seq) {
    evidence.push(
      note('original counterexample (arguments sent)', original.args),
      ...(check.describe?.(original.value) ?? []),
      original.exchange,
    );
  }
  return {
    status: failure.targetGone ? 'error' : 'fail',
    tool: t.label,
    message:
      `${shrunk.problem}, for arguments ${shownArgs(shrunk.args)} (${found}` +
      `${original === shrunk ? '' : `; the original case was ${shownArgs(original.args)}`})`,
    expected: check.expected,
    evidence,
    replay: replayLine(ctx, check.id, t, failure.path),
  };
}

function callableTools(
  ctx: CheckContext,
  tools: readonly ListedTool[],
): { callable: ListedTool[]; notCalled: string[] } {
  const replay = propertyOptions(ctx).replay;
  const seen = new Set<string>();
  // A name listed twice is one tool to tools/call: it is searched once, as its first definition says.
  const named = tools.filter(
    (t) =>
      typeof t.tool.name === 'string' &&
      (!replay || t.tool.name === replay.tool) &&
      !seen.has(t.tool.name) &&
      seen.add(t.tool.name),
  );
  return {
    callable: named.filter((t) => ctx.mayCall(t.tool)),
    notCalled: named.filter((t) => !ctx.mayCall(t.tool)).map((t) => t.label),
  };
}

/**
 * Several calls may be in flight when a target dies; the earliest sent is the one it died on (requests are read in
 * order).
 */
function firstLost(ctx: CheckContext, exchange: Exchange): boolean {
  const lost = ctx.exchanges().filter((e) => e.failure?.kind === 'target-exited');
  return lost.every((e) => e.seq >= exchange.seq);
}

/**
 * When answers are slow, all the searches of a run together take about `ms` of wall time at the default --runs (more
 * --runs buy proportionally more), each search an equal share of it at --concurrency calls in flight; a search that
 * would overrun its share stops early, after at least one case. 15 s: a 25-tool server answering in 0.5 s is then
 * searched two cases per tool and case stream (the property checks draw on `streams`: the schema-valid cases, shared by
 * two checks, and the invalid ones) within the time its scripted checks take, rather than the 10 × 0.5 s per tool and
 * stream (about a minute) of SLOW_SEARCH alone. A server answering in 100 ms or less is not slowed by it below ~10
 * tools.
 */
export const SEARCH_PHASE = { ms: 15_000, streams: 2 } as const;

/** When a search stops for slow answers: SLOW_SEARCH, or its share of SEARCH_PHASE when that is smaller. */
export function slowStopFor(runs: number, concurrency: number, tools: number): SlowStop {
  const ownMs = SLOW_SEARCH.msPerCase * runs;
  const shareMs =
    (SEARCH_PHASE.ms * (runs / DEFAULT_RUNS) * Math.max(1, concurrency)) / (Math.max(1, tools) * SEARCH_PHASE.streams);
  return shareMs < ownMs
    ? { allowanceMs: Math.round(shareMs), minCases: 1 }
    : { allowanceMs: ownMs, minCases: SLOW_SEARCH.minCases };
}

const slowReason = (stop: SlowStop) =>
  `its answers were slow (a search allows about ${SLOW_SEARCH.msPerCase} ms of answer time per case of --runs, ` +
  `and all searches together about ${SEARCH_PHASE.ms / 1000} s with --concurrency calls in flight: ` +
  `${stop.allowanceMs} ms each here)`;

/**
 * What the searches leave of the --max-duration budget for the checks after them: 10 % of what remains, at most 10 s.
 */
const RESERVE = { fraction: 0.1, maxMs: 10_000 } as const;

/**
 * Each tool's search may take an equal share of what is left of the budget: with `lanes` tools searched at once, every
 * tool gets its turn before the searches' end, however slow the first ones are.
 */
interface Budget {
  end?: number;
  shareMs?: number;
}

function budgetFor(ctx: CheckContext, tools: number, lanes: number): Budget {
  const deadline = ctx.options.deadline;
  if (deadline === undefined || tools === 0) return {};
  const left = Math.max(0, deadline - Date.now());
  const end = deadline - Math.min(left * RESERVE.fraction, RESERVE.maxMs);
  return { end, shareMs: Math.max(1, ((end - Date.now()) * lanes) / tools) };
}

async function searchTool<Case>(
  ctx: CheckContext,
  check: SearchCheck<Case>,
  t: ListedTool,
  gate: Limiter,
  budget: Budget,
  slowStop: SlowStop,
): Promise<Outcome | SearchResult<Case>> {
  // A replay re-runs its one case whatever the scripted checks say (and sends nothing else).
  const reported = propertyOptions(ctx).replay ? undefined : await check.reportedBy?.(ctx, t);
  if (reported) return { ...skip(`not searched: ${reported}`), tool: t.label };
  const timedOut = ctx.timedOutCall(t.tool.name as string);
  if (timedOut) return { ...skip(`not searched: ${timedOutReason(timedOut)}`), tool: t.label, evidence: [timedOut] };
  const prepared = prepareSource(t.tool.inputSchema);
  if (!prepared.ok) return { ...skip(`no arguments can be generated: ${prepared.reason}`), tool: t.label };
  const options = propertyOptions(ctx);
  const name = t.tool.name as string;
  const send = (args: Arguments) => gate.run(() => ctx.callTool(name, args));
  const inStream = (stream: string, args: Arguments, canonical = canonicalJson(args)) =>
    ctx.memo(`property-call\u0000${stream}\u0000${name}\u0000${canonical}`, () => send(args));
  const deadline = budget.end !== undefined ? Math.min(budget.end, Date.now() + budget.shareMs!) : undefined;
  const spec = check.property(t, prepared.source, async (args, stream) => {
    if (deadline !== undefined && Date.now() >= deadline) return undefined;
    return stream === undefined ? send(args) : inStream(stream, args);
  });
  if (typeof spec === 'string') return { ...skip(spec), tool: t.label };
  const stream = check.caseStream;
  const result = await search(spec, {
    seed: derivedSeed(options.seed, stream ?? check.id, name),
    runs: check.validOnly && prepared.source.single ? 1 : options.runs,
    path: options.replay?.path,
    ...(deadline !== undefined ? { deadline } : {}),
    slowStop,
    call: stream === undefined ? send : (args, canonical) => inStream(stream, args, canonical),
  });
  if (result.abandoned)
    return {
      ...skip(`not finished: the target stopped answering during another call (${result.abandoned.message})`),
      tool: t.label,
    };
  if (result.failure?.targetGone && !firstLost(ctx, result.failure.shrunk.exchange)) {
    return {
      ...skip(
        'not finished: the target stopped answering while this case and an earlier-sent one were in flight; ' +
          'the earlier one is reported',
      ),
      tool: t.label,
    };
  }
  if (result.failure) return failureOutcome(ctx, check, t, result);
  if (result.slow) {
    return {
      ...skip(
        `a generated case did not complete (${result.slow.exchange.failure!.message}); it was cancelled and ` +
          `the search of this tool stopped after ${result.calls} call(s) — a long-running tool, or raise ` +
          `--timeout`,
      ),
      tool: t.label,
      evidence: [note('the case that timed out (arguments sent)', result.slow.args), result.slow.exchange],
    };
  }
  if (result.tooManySkips)
    return {
      ...skip(
        'nearly every generated case had to be discarded (no constraint of the schema could be broken, or ' +
          'values could not be generated)',
      ),
      tool: t.label,
    };
  if (result.cases === 0) return { ...skip('no case could be run (the --max-duration budget ran out)'), tool: t.label };
  return result;
}

/** Searches every callable tool (a bounded number at once) and reports failures per tool, or one pass. */
export async function searchTools<Case>(ctx: CheckContext, check: SearchCheck<Case>): Promise<Outcome[]> {
  const options = propertyOptions(ctx);
  const listed = (await listedTools(ctx)).filter((t) => check.applies?.to(t) ?? true);
  if (listed.length === 0 && check.applies) return [skip(check.applies.none)];
  const { callable, notCalled } = callableTools(ctx, listed);
  if (callable.length === 0) {
    if (options.replay)
      return [
        skip(
          `the replayed tool ${JSON.stringify(options.replay.tool)} is not listed, or may not be called (` +
            `${ctx.callPolicy})`,
        ),
      ];
    const why = notCalled.length ? `; not called: ${notCalled.slice(0, 5).join(', ')}` : '';
    return [skip(`no tool may be called (${ctx.callPolicy})${why}`)];
  }
  const gate = await limiter(ctx);
  const verdicts: (Outcome | SearchResult<Case>)[] = new Array(callable.length);
  const lanes = Math.min(options.concurrency, callable.length);
  const budget = budgetFor(ctx, callable.length, lanes);
  // Every check shares the phase by the tools any of them may search, so that each stream of a tool gets the same
  // share.
  const slowStop = slowStopFor(
    options.runs,
    options.concurrency,
    callableTools(ctx, await listedTools(ctx)).callable.length,
  );
  let next = 0;
  const worker = async () => {
    while (next < callable.length) {
      const index = next++;
      verdicts[index] = await searchTool(ctx, check, callable[index]!, gate, budget, slowStop);
    }
  };
  await Promise.all(Array.from({ length: lanes }, worker));

  const settled = callable.map((t, i) => ('status' in verdicts[i]! ? undefined : check.settle?.(t)));
  const outcomes = [
    ...verdicts.filter((v): v is Outcome => 'status' in v),
    ...settled.flatMap((s) => s?.outcomes ?? []),
  ];
  const searched = callable.flatMap((t, i) =>
    'status' in verdicts[i]! || settled[i]?.counted === false
      ? []
      : [{ tool: t.label, ...(verdicts[i] as SearchResult<Case>) }],
  );
  if (searched.length > 0) {
    const cases = searched.reduce((sum, s) => sum + s.cases, 0);
    const stopped = searched.filter((s) => s.interrupted);
    const cut = stopped.length
      ? `; the search of ${stopped.map((s) => `${s.tool} (after ${s.cases} case(s))`).join(', ')} stopped early: ` +
        `its share of the --max-duration budget was used`
      : '';
    const slowed = searched.filter((s) => s.slowed && !s.interrupted);
    const slowCut = slowed.length
      ? `; the search of ` +
        `${slowed.map((s) => `${s.tool} (after ${s.cases} case(s), ${s.slowed!.meanMs} ms per answer)`).join(', ')}` +
        ` stopped early: ${slowReason(slowStop)}`
      : '';
    const remarks = check.remarks?.() ?? '';
    const stoppedEarly = (s: SearchResult<Case>) =>
      s.interrupted
        ? 'its share of the --max-duration budget was used'
        : s.slowed
          ? `${slowReason(slowStop)} (${s.slowed.meanMs} ms per answer)`
          : undefined;
    const perTool = searched.map((s) => ({
      tool: s.tool,
      cases: s.cases,
      digest: s.digest,
      ...(stoppedEarly(s) ? { stoppedEarly: stoppedEarly(s) } : {}),
    }));
    outcomes.unshift(
      pass(
        `${cases} generated case(s) over ${searched.length} tool(s) ${check.passed} (seed ${options.seed})` +
          `${cut}${slowCut}${remarks}`,
        [note('cases per tool, with a digest of the arguments sent', perTool)],
      ),
    );
  }
  return outcomes;
}
