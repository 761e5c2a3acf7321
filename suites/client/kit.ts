import {
  canonicalJson,
  type ClientCheckContext,
  type ClientCheckDefinition,
  evidenceOf,
  type KeywordText,
  LATEST_REVISION,
  type Outcome,
  type SeenRequest,
  type SpecSentence,
  type SpecSentences,
} from '../kit/index.js';
import { governed } from '../kit/define-check.js';
import { fail, note, pass, skip } from '../kit/outcome.js';

export { fail, note, pass, skip };

export const sentence = (ref: string, text: string, keyword: KeywordText): SpecSentence => ({ ref, text, keyword });

/**
 * A client check on the 2026-07-28 wire, and on the earlier revisions in `earlier` (those whose pages hold the same
 * rule, quoted from them); its keyword is its first sentence's.
 */
export function clientCheck(
  definition: Omit<ClientCheckDefinition, 'keyword' | 'sentences' | 'specRef'> & {
    sentences: readonly SpecSentence[];
    earlier?: SpecSentences;
  },
): ClientCheckDefinition {
  const { earlier, ...rest } = definition;
  return governed({ ...rest, sentences: { [LATEST_REVISION]: definition.sentences, ...earlier } });
}

/** How many offending items a finding shows as evidence. */
const SHOWN = 5;

/**
 * The usual verdict over what the client sent: skip when there was nothing to judge (saying why), pass when nothing
 * broke the rule, fail naming the first offenders with their messages as evidence.
 */
export function judgeRequests<T extends { request: SeenRequest | undefined; problem: string }>(
  judged: number,
  none: string,
  offenders: readonly T[],
  passed: string,
  expected: string,
): Outcome[] {
  if (judged === 0) return [skip(none)];
  if (offenders.length === 0) return [pass(passed)];
  const shown = offenders.slice(0, SHOWN);
  return [
    fail(
      `${offenders.length} of ${judged}: ${shown.map((o) => o.problem).join('; ')}` +
        `${offenders.length > SHOWN ? '; …' : ''}`,
      expected,
      shown.flatMap((o) => (o.request ? [evidenceOf(o.request.seen)] : [])),
    ),
  ];
}

export const sameId = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/**
 * Whether `earlier` was still waiting for its answer when `later` arrived (a stream the client closed waits no more).
 */
const inFlightAt = (earlier: SeenRequest, later: SeenRequest): boolean => {
  const ended = earlier.seen.answeredT ?? earlier.seen.abandonedT;
  return earlier.seen.seq < later.seen.seq && (ended === undefined || ended > later.seen.t);
};

/**
 * For each item, the first earlier one of the same sender with the same key (a request id, a progress token) whose
 * request was still unanswered when this one arrived. A sender is the id space "in flight" is counted in: over stdio
 * each server process the client starts is a connection of its own (the SDK v2 client probes on one and works on
 * another); over HTTP every POST is the same client speaking to the one endpoint, whatever TCP connection carried it.
 * Items are grouped by sender and key first, so a client that floods thousands of requests costs one pass, not a pass
 * per request.
 */
export function reusedWhileInFlight<T>(
  items: readonly T[],
  requestOf: (item: T) => SeenRequest,
  keyOf: (item: T) => unknown,
): { item: T; earlier: T }[] {
  const groups = new Map<string, T[]>();
  const found: { item: T; earlier: T }[] = [];
  for (const item of items) {
    const request = requestOf(item);
    const group =
      `${request.seen.transport === 'http' ? 'http' : request.seen.connection}\u0000` + `${canonicalJson(keyOf(item))}`;
    const before = groups.get(group) ?? [];
    const earlier = before.find((other) => inFlightAt(requestOf(other), request));
    if (earlier !== undefined) found.push({ item, earlier });
    groups.set(group, [...before, item]);
  }
  return found;
}

/** Each tools/call the scripted server answered with input_required, and the client's next call of the same tool. */
export function retries(
  ctx: ClientCheckContext,
): { original: SeenRequest; irr: Record<string, unknown>; retry?: SeenRequest }[] {
  return ctx.requests.flatMap((original) => {
    if (original.method !== 'tools/call') return [];
    const irr = ctx.resultOf(original);
    if (irr?.resultType !== 'input_required') return [];
    const retry = ctx.requests.find(
      (r) =>
        r.seen.seq > original.seen.seq &&
        r.method === 'tools/call' &&
        r.params.name === original.params.name &&
        r !== original,
    );
    return [{ original, irr, ...(retry ? { retry } : {}) }];
  });
}

/**
 * A verdict on how the driver reported its call of `tool`: the `wanted` outcome (a result, or an error) passes, the
 * other fails. It skips, saying why, when the driver printed no line for the tool, or (with `afterCall`, for rules
 * about what the server answered) when the client never sent the call.
 */
export function judgeDriverLine(
  ctx: ClientCheckContext,
  tool: string,
  wanted: 'result' | 'error',
  text: { passed: string; failed: string; expected: string; afterCall: boolean },
): Outcome[] {
  const calls = ctx.calls(tool);
  if (text.afterCall && calls.length === 0) return [skip(`the client did not call ${tool}`)];
  const line = ctx.line(tool);
  if (!line)
    return [
      skip(
        calls.length === 0
          ? `the client did not call ${tool}`
          : `the driver printed no line for ${tool}${noiseNote(ctx)}`,
      ),
    ];
  const evidence = [...calls.slice(-1).map((c) => evidenceOf(c.seen)), note('what the driver printed', line)];
  return line.outcome === wanted ? [pass(text.passed, evidence)] : [fail(text.failed, text.expected, evidence)];
}

/** When the driver's stdout held lines that are not driver lines: say so, since they may be the missing ones. */
const noiseNote = (ctx: ClientCheckContext) =>
  ctx.observed.stdoutNoise.length === 0
    ? ''
    : ` (its stdout held ${ctx.observed.stdoutNoise.length} line(s) that are not driver lines, first: ` +
      `${JSON.stringify(ctx.observed.stdoutNoise[0]!.slice(0, 80))})`;

export const describeRequest = (r: SeenRequest): string =>
  `${r.method}${typeof r.params.name === 'string' ? ` ${r.params.name}` : ''} (id ${JSON.stringify(r.id)}, ` +
  `message #${r.seen.seq})`;
