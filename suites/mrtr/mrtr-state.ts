import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  errorOf,
  type Evidence,
  type Exchange,
  type Outcome,
  resultOf,
} from '../kit/index.js';
import { CAPABILITIES, conversations, type Conversation } from './mrtr.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { perToolOutcomes } from '../kit/per-tool-outcomes.js';

/** Tools whose retries are replayed with a tampered requestState: each costs at most 4 requests. */
const MAX_TOOLS = 2;

export type Variant = 'flipped' | 'truncated' | 'empty' | 'foreign';

/**
 * How a server answered a retry whose requestState was changed: `crashed` (no answer: a timeout, the connection lost
 * or the target gone), `rejected` (a JSON-RPC error, an HTTP error, or a result with isError; an internal error -32603
 * or a 5xx counts here too: a server may report a state it refused that way), `asked-again` (input_required),
 * `accepted` (a complete result, as if the state were valid), `unclear` (an answer we cannot read).
 */
export type Verdict = 'crashed' | 'rejected' | 'asked-again' | 'accepted' | 'unclear';

export interface TamperedRetry {
  variant: Variant;
  state: string;
  exchange: Exchange;
  verdict: Verdict;
  why: string;
}

export interface StateProbe {
  tool: string;
  /** The retry of the conversation that carried the genuine requestState and got a result. */
  genuine: Exchange;
  tampered: TamperedRetry[];
}

/** The same base64url-ish alphabet, shifted by one, so a flipped character stays plausible. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The state with its middle character replaced by another one (the next of its alphabet). */
export function flipOne(state: string): string {
  const chars = [...state];
  const at = Math.floor(chars.length / 2);
  const c = chars[at]!;
  const i = ALPHABET.indexOf(c);
  chars[at] = i < 0 ? (c === 'A' ? 'B' : 'A') : ALPHABET[(i + 1) % ALPHABET.length]!;
  return chars.join('');
}

/** The variants of one genuine state, with the state of another tool's flow as the foreign one when there is one. */
export function variantsOf(state: string, foreign: string | undefined): { variant: Variant; state: string }[] {
  const out: { variant: Variant; state: string }[] = [];
  if (state.length > 0) out.push({ variant: 'flipped', state: flipOne(state) });
  if (state.length >= 2)
    out.push({ variant: 'truncated', state: [...state].slice(0, Math.floor([...state].length / 2)).join('') });
  if (state.length > 0) out.push({ variant: 'empty', state: '' });
  if (foreign !== undefined && foreign !== state) out.push({ variant: 'foreign', state: foreign });
  return out;
}

const CRASH_FAILURES = new Set(['target-exited', 'connection', 'timeout']);

export function classify(exchange: Exchange): { verdict: Verdict; why: string } {
  if (exchange.response === undefined && exchange.failure && CRASH_FAILURES.has(exchange.failure.kind)) {
    return { verdict: 'crashed', why: `no answer (${exchange.failure.kind}: ${exchange.failure.message})` };
  }
  const error = errorOf(exchange.response);
  if (error) return { verdict: 'rejected', why: `error ${String(error.code)}: ${String(error.message)}` };
  if ((exchange.status ?? 0) >= 400) return { verdict: 'rejected', why: `HTTP ${exchange.status}` };
  const result = resultOf(exchange.response);
  if (!result) return { verdict: 'unclear', why: exchange.failure?.message ?? 'no result and no error' };
  if (result.resultType === 'input_required') return { verdict: 'asked-again', why: 'input_required again' };
  if (result.isError === true) return { verdict: 'rejected', why: 'a result with isError: true' };
  return { verdict: 'accepted', why: `a ${String(result.resultType ?? 'complete')} result` };
}

/** The last retry of a conversation that echoed a requestState and got a result (not an error): the one to replay. */
function genuineRetry(
  c: Conversation,
): { params: Record<string, unknown>; state: string; exchange: Exchange } | undefined {
  for (let i = c.rounds.length - 1; i >= 1; i--) {
    const round = c.rounds[i]!;
    const state = round.params.requestState;
    if (typeof state === 'string' && round.result !== undefined)
      return { params: round.params, state, exchange: round.exchange };
  }
  return undefined;
}

/**
 * Replays, for at most 2 tools, the conversation's retry that echoed a genuine requestState and got a result, with the
 * state flipped in one character, truncated to half, empty, and replaced by another tool's state (when another tool
 * gave one); nothing else changes (same tool, arguments, inputResponses and capabilities, a new id). At most 8
 * requests. A tool's remaining variants are not sent once one crashed it.
 */
export function tamperedRetries(ctx: CheckContext): Promise<{ probes: StateProbe[]; why: string }> {
  return ctx.memo('mrtr-tampered-retries', async () => {
    const all = await conversations(ctx);
    const bases = all.flatMap((c) => {
      const g = genuineRetry(c);
      return g ? [{ tool: c.tool, ...g }] : [];
    });
    if (bases.length === 0) {
      const withIrr = all.filter((c) => c.rounds.some((r) => r.result?.resultType === 'input_required'));
      const why =
        withIrr.length === 0
          ? 'no called tool answered input_required'
          : `no retry echoing a requestState got a result (` +
            `${withIrr.map((c) => `${c.tool}: ${c.outcome}${c.why ? `, ${c.why}` : ''}`).join('; ')})`;
      return { probes: [], why };
    }
    const probes: StateProbe[] = [];
    for (const base of bases.slice(0, MAX_TOOLS)) {
      const foreign = bases.find((b) => b.tool !== base.tool && b.state !== base.state)?.state;
      const probe: StateProbe = { tool: base.tool, genuine: base.exchange, tampered: [] };
      for (const { variant, state } of variantsOf(base.state, foreign)) {
        const exchange = await ctx.client.request(
          'tools/call',
          { ...base.params, requestState: state },
          { capabilities: CAPABILITIES, probe: true },
        );
        const { verdict, why } = classify(exchange);
        probe.tampered.push({ variant, state, exchange, verdict, why });
        if (verdict === 'crashed') break;
      }
      probes.push(probe);
    }
    return { probes, why: '' };
  });
}

const shorten = (s: string) =>
  s.length > 80 ? `${s.slice(0, 40)}…${s.slice(-30)} (${s.length} chars)` : JSON.stringify(s);

const VARIANT_TEXT: Record<Variant, string> = {
  flipped: 'one character changed',
  truncated: 'cut to its first half',
  empty: 'the empty string',
  foreign: "another tool's flow's state",
};

function evidenceOf(probe: StateProbe, retries: readonly TamperedRetry[]): Evidence[] {
  return [
    note(
      `the genuine retry (same tool, arguments and inputResponses) got a result; each tampered retry changes ` +
        `only requestState`,
    ),
    probe.genuine,
    ...retries.flatMap((r) => [
      note(`${r.variant}: requestState ${VARIANT_TEXT[r.variant]} (${shorten(r.state)}) → ${r.why}`),
      r.exchange,
    ]),
  ];
}

const summary = (retries: readonly TamperedRetry[]) => retries.map((r) => `${r.variant} → ${r.why}`).join('; ');

export const requestStateUntrusted: CheckDefinition = defineCheck({
  id: 'mrtr.requeststate.untrusted',
  covers: ['mrtr.sec.validate-state'],
  title:
    'A retry with a tampered or foreign requestState is answered like bad input (an error, or input_required ' +
    'again), never with silence (a timeout, a lost connection, an exit)',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text:
          'If a client request contains a requestState field, servers MUST treat requestState as an ' +
          'attacker-controlled input.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/patterns/mrtr#security-considerations',
        text: 'Servers MUST validate request state as described in the server requirements above.',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    return perToolOutcomes(await tamperedRetries(ctx), (probe): Outcome => {
      const crashed = probe.tampered.filter((r) => r.verdict === 'crashed');
      if (crashed.length === 0) {
        return pass(
          `${probe.tampered.length} retr${probe.tampered.length === 1 ? 'y' : 'ies'} with a changed ` +
            `requestState, none left unanswered: ${summary(probe.tampered)}`,
          evidenceOf(probe, probe.tampered),
        );
      }
      return fail(
        `a retry differing from a genuine one only in its requestState (` +
          `${crashed.map((r) => VARIANT_TEXT[r.variant]).join(', ')}) got ${crashed.map((r) => r.why).join('; ')}` +
          `: the state reached code that broke on it instead of being checked as attacker-controlled input`,
        'a JSON-RPC error for bad input (e.g. -32602) or input_required asking again: servers MUST treat ' +
          'requestState as attacker-controlled input',
        evidenceOf(probe, probe.tampered),
      );
    });
  },
});

export const requestStateVerified: CheckDefinition = defineCheck({
  id: 'mrtr.requeststate.replay-binding',
  covers: ['mrtr.requeststate.integrity', 'mrtr.requeststate.reject-unverified'],
  title:
    'A retry with a tampered or foreign requestState is not carried to completion as if the state were valid ' +
    '(warn: the integrity MUSTs bind only if the state influences authorization, resource access or business ' +
    'logic, which an auditor cannot see)',
  area: 'mrtr',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text:
          'To prevent replay, servers SHOULD include the following inside the integrity-protected requestState ' +
          'payload and verify each on receipt:',
        keyword: 'SHOULD',
      },
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text:
          'an identifier for the originating request, e.g. the method name and a digest of its salient ' +
          'parameters, rejecting state presented on a request that does not match.',
        keyword: 'descriptive',
      },
      {
        ref: 'basic/patterns/mrtr#server-requirements-basic-workflow',
        text: 'Integrity protection MAY be omitted only when tampering can cause nothing worse than request failure.',
        keyword: 'MAY',
      },
    ],
  },
  needs: ['live', 'tool-call'],
  phase: 'serial',
  async run(ctx) {
    return perToolOutcomes(await tamperedRetries(ctx), (probe): Outcome => {
      const accepted = probe.tampered.filter((r) => r.verdict === 'accepted');
      if (accepted.length === 0) {
        const judged = probe.tampered.filter((r) => r.verdict !== 'unclear');
        if (judged.length === 0) return skip(`no tampered retry got an answer we can read: ${summary(probe.tampered)}`);
        return pass(
          `no retry with a changed requestState was carried to completion: ${summary(probe.tampered)}`,
          evidenceOf(probe, probe.tampered),
        );
      }
      return fail(
        `a retry differing from a genuine one only in its requestState (` +
          `${accepted.map((r) => VARIANT_TEXT[r.variant]).join(', ')}) was carried to completion as if the state ` +
          `were valid. ` +
          'Whether a MUST is broken cannot be seen from outside: "If requestState influences authorization, ' +
          'resource access, or business logic, servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST ' +
          'reject state that fails verification", ' +
          'and integrity protection may be omitted when tampering can cause nothing worse than request ' +
          'failure; so this is reported under the SHOULD to integrity-protect the state and verify it on ' +
          'receipt',
        'the tampered or foreign state rejected (a JSON-RPC error) or the input asked for again ' +
          '(input_required), as for state that fails verification',
        evidenceOf(probe, probe.tampered),
      );
    });
  },
});

export const MRTR_STATE_CHECKS = [requestStateUntrusted, requestStateVerified] as const;
