import { errorOf, isObject, resultOf } from '../core/jsonrpc.js';
import { lateAnswer, lateAnswerSoFar, type LateAnswer } from '../transport/late-answers.js';
import { TargetNotStartedError, TargetUnavailableError, type Transport } from '../transport/types.js';
import type { Exchange } from '../model/exchange.js';
import type { McpClient } from './client.js';
import { STATELESS_ERROR_CODES } from './constants.js';
import {
  HTTP_SSE_REVISION,
  INITIALIZE_REVISIONS,
  isInitializeRevision,
  isRevision,
  LATEST_INITIALIZE_REVISION,
  LATEST_REVISION,
  type Revision,
} from '../core/revision.js';
import { RevisionRefusedError, TargetGoneError } from './errors.js';
import { ERR } from './constants.js';
import { INITIALIZE_CLIENT_CAPABILITIES } from './server-requests.js';

export type SpecChoice = 'auto' | Revision;

export interface Negotiation {
  wire: Revision;
  reason: string;
  /** The probe's `server/discover` exchange, reused by the discovery checks. */
  discover?: Exchange;
  /** Initialize revisions: the `initialize` exchange. */
  initialize?: Exchange;
}

/**
 * Decide which wire to audit on, as the spec's backward-compatibility rules say: probe with
 * `server/discover`; a DiscoverResult or a recognised error of the stateless revisions means 2026-07-28; anything else
 * (other error, silence, an HTTP 4xx without such an error body) means an initialize revision: fall back to
 * `initialize`. One refinement for auditing: when `initialize` is rejected too, the server is a 2026-07-28 one whose
 * discovery is broken, so we stay on the 2026-07-28 wire and let the discovery checks report it.
 */
export async function negotiate(client: McpClient, spec: SpecChoice): Promise<Negotiation> {
  if (spec === LATEST_REVISION) {
    client.wire = LATEST_REVISION;
    return {
      wire: LATEST_REVISION,
      reason: `--protocol-version ${LATEST_REVISION}: server/discover only, no initialize`,
    };
  }
  if (spec !== 'auto') {
    const initialize = await initializeHandshake(client, spec, false);
    if (!initialize.ok) throw new TargetUnavailableError(`initialize failed: ${initialize.why}`);
    return {
      wire: initialize.wire,
      reason: `--protocol-version ${spec} offered; ${initialize.why}`,
      initialize: initialize.exchange,
    };
  }

  client.wire = LATEST_REVISION;
  const discover = await guard(() => client.request('server/discover', {}, { probe: true }));
  const verdict = classifyProbe(discover, client.transport.kind);
  if (verdict.era === 'modern') {
    return { wire: LATEST_REVISION, reason: verdict.why, discover };
  }
  if (verdict.era === 'unsupported') throw new TargetUnavailableError(verdict.why);

  const initialize = await initializeHandshake(client, LATEST_INITIALIZE_REVISION, true);
  // A server slow to start (a loaded machine, a heavy runtime) answers the probe after --timeout: before its answer to
  // initialize, or, when that timed out too, within the probe's grace.
  const waitForLate = !initialize.ok && !initialize.rejected && discover.failure?.kind === 'timeout';
  const late = initialize.ok
    ? undefined
    : lateDiscover(
        discover,
        lateAnswerSoFar(discover) ?? (waitForLate ? await lateAnswer(discover) : undefined),
        client.transport.kind,
      );
  if (late) {
    client.wire = LATEST_REVISION;
    client.initializeVersion = undefined;
    return { wire: LATEST_REVISION, reason: late, discover };
  }
  if (initialize.ok) {
    return {
      wire: initialize.wire,
      reason: `server/discover probe: ${verdict.why}; fell back to initialize: ${initialize.why}`,
      initialize: initialize.exchange,
    };
  }
  if (initialize.rejected) {
    client.wire = LATEST_REVISION;
    client.initializeVersion = undefined;
    return {
      wire: LATEST_REVISION,
      reason:
        `server/discover probe: ${verdict.why}; initialize was rejected too (${initialize.why}), so the ` +
        `server is taken to be modern with broken discovery`,
      discover,
    };
  }
  throw new TargetUnavailableError(`server/discover probe: ${verdict.why}; initialize: ${initialize.why}`);
}

/**
 * --revisions: offer exactly `revision` and audit on it only if the target takes it. 2026-07-28 is taken when
 * `server/discover` works (the probe `auto` uses says 2026-07-28); an initialize revision when the InitializeResult
 * agrees it (one without a protocolVersion made no counter-offer, as for --protocol-version). Another version answered,
 * an error, or a discover probe that says an initialize revision rejects with RevisionRefusedError naming the answer; a
 * target that cannot be reached or stays silent on `initialize` rejects with TargetUnavailableError, as any negotiation
 * does.
 */
export async function negotiateRevision(client: McpClient, revision: Revision): Promise<Negotiation> {
  if (revision === LATEST_REVISION) {
    client.wire = LATEST_REVISION;
    const discover = await guard(() => client.request('server/discover', {}, { probe: true }));
    const late = lateDiscover(discover, await lateAnswer(discover), client.transport.kind);
    if (late) return { wire: LATEST_REVISION, reason: `--revisions: ${late}`, discover };
    const verdict = classifyProbe(discover, client.transport.kind);
    if (verdict.era !== 'modern') throw new RevisionRefusedError(verdict.why);
    return { wire: LATEST_REVISION, reason: `--revisions: ${verdict.why}`, discover };
  }
  const initialize = await initializeHandshake(client, revision, false, true);
  if (initialize.ok)
    return { wire: initialize.wire, reason: `--revisions: ${initialize.why}`, initialize: initialize.exchange };
  if (initialize.rejected) throw new RevisionRefusedError(initialize.why);
  throw new TargetUnavailableError(`initialize failed: ${initialize.why}`);
}

/** Why the target speaks 2026-07-28, when the discover probe that timed out was answered late with what says so. */
function lateDiscover(
  discover: Exchange,
  late: LateAnswer | undefined,
  transport: Transport['kind'],
): string | undefined {
  if (!discover.failure || !late) return undefined;
  const verdict = classifyProbe({ ...discover, response: late.response, failure: undefined }, transport);
  if (verdict.era !== 'modern') return undefined;
  return (
    `${verdict.why}, ${late.afterMs} ms after it was sent (late for the ${late.timeoutMs} ms it was given, so ` +
    `that is not judged)`
  );
}

interface ProbeVerdict {
  era: 'modern' | 'legacy' | 'unsupported';
  why: string;
}

export function classifyProbe(exchange: Exchange, transport: Transport['kind']): ProbeVerdict {
  if (exchange.failure?.kind === 'connection') {
    throw new TargetNotStartedError(`cannot reach the target: ${exchange.failure.message}`);
  }
  if (exchange.failure?.kind === 'target-exited') {
    throw new TargetUnavailableError(`the target exited before answering server/discover: ${exchange.failure.message}`);
  }
  const result = resultOf(exchange.response);
  if (result) {
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : undefined;
    if (versions && versions.length > 0 && !versions.includes(LATEST_REVISION)) {
      return {
        era: 'modern',
        why:
          `server/discover answered but lists ${JSON.stringify(versions)} without ${LATEST_REVISION}; auditing ` +
          `on ${LATEST_REVISION} anyway`,
      };
    }
    return { era: 'modern', why: 'server/discover returned a DiscoverResult' };
  }
  const error = errorOf(exchange.response);
  if (error && typeof error.code === 'number') {
    if (error.code === ERR.unsupportedVersion) {
      const supported = isObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
      if (supported.includes(LATEST_REVISION))
        return { era: 'modern', why: 'server/discover answered -32022 yet lists 2026-07-28' };
      return {
        era: 'unsupported',
        why:
          `the server is modern but does not support ${LATEST_REVISION} (UnsupportedProtocolVersionError, ` +
          `supported: ${JSON.stringify(supported)})`,
      };
    }
    if (STATELESS_ERROR_CODES.has(error.code)) {
      return { era: 'modern', why: `server/discover answered with the modern error ${error.code}` };
    }
    if (transport === 'http' && exchange.status === 404 && error.code === ERR.methodNotFound) {
      return { era: 'legacy', why: 'server/discover answered 404 with -32601 (method not found)' };
    }
    return {
      era: 'legacy',
      why: `server/discover answered with error ${error.code} (${String(error.message).slice(0, 120)})`,
    };
  }
  if (exchange.failure)
    return { era: 'legacy', why: `server/discover got no usable answer (${exchange.failure.message})` };
  return { era: 'legacy', why: 'server/discover answered with neither result nor error' };
}

type Handshake =
  | { ok: true; wire: Revision; why: string; exchange: Exchange }
  /** `rejected`: the server answered initialize with an error (as opposed to silence). */
  | { ok: false; rejected: boolean; why: string; exchange?: Exchange };

const KNOWN = `${INITIALIZE_REVISIONS.join(', ')}`;

/**
 * The revision the server agreed in its InitializeResult. "If the server supports the requested protocol version, it
 * MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports": a
 * known initialize revision other than the one offered is agreed too. A version this tool does not know is reported as
 * such, never judged under a neighbour's rules.
 */
function agreedWire(agreed: unknown, offered: Revision): { wire: Revision; why: string } {
  if (agreed === offered) return { wire: offered, why: `initialize agreed protocol version ${offered}` };
  // A result without the version (schema.result.valid reports it) made no counter-offer: the offered revision judges
  // it.
  if (agreed === undefined)
    return {
      wire: offered,
      why: `initialize answered without a protocolVersion, so it is judged on the ${offered} it was offered`,
    };
  if (isRevision(agreed) && isInitializeRevision(agreed))
    return {
      wire: agreed,
      why: `initialize offered ${offered}, and the server answered with ${agreed}, which it supports`,
    };
  throw new TargetUnavailableError(
    `initialize offered ${offered}, and the server answered with protocol version ${shownVersion(agreed)}, ` +
      `which this tool does not know for an initialize handshake (it judges ${KNOWN}): no revision's rules can ` +
      `be held against it`,
  );
}

function shownVersion(agreed: unknown): string {
  return typeof agreed === 'string'
    ? JSON.stringify(agreed.slice(0, 60))
    : `no protocolVersion string (${JSON.stringify(agreed)?.slice(0, 60) ?? 'absent'})`;
}

/**
 * `probing`: no revision was chosen (--protocol-version auto). `exact`: a result agreeing another version is a refusal
 * (`rejected`), before notifications/initialized is sent.
 */
async function initializeHandshake(
  client: McpClient,
  offered: Revision,
  probing: boolean,
  exact = false,
): Promise<Handshake> {
  client.wire = offered;
  client.initializeVersion = undefined;
  const sent = await guard(() =>
    client.request(
      'initialize',
      { protocolVersion: offered, capabilities: { ...INITIALIZE_CLIENT_CAPABILITIES }, clientInfo: client.clientInfo },
      { probe: probing },
    ),
  );
  // A server slow to start answers after --timeout: its late answer is the answer (the handshake goes on with it).
  const late = sent.failure?.kind === 'timeout' ? await lateAnswer(sent) : undefined;
  const exchange: Exchange = late
    ? { ...sent, response: late.response, failure: undefined, durationMs: late.afterMs }
    : sent;
  const result = resultOf(exchange.response);
  if (!result) {
    const httpSse = await httpSseFallback(client, exchange);
    if (httpSse?.found) {
      // The revision that defines the transport, unless one was chosen.
      const handshake = await initializeHandshake(client, probing ? HTTP_SSE_REVISION : offered, probing, exact);
      return { ...handshake, why: `${httpSse.why}; ${handshake.why}` };
    }
    const alsoTried = httpSse ? `; ${httpSse.why}` : '';
    const error = errorOf(exchange.response);
    if (error)
      return {
        ok: false,
        rejected: true,
        why: `initialize answered error ${String(error.code)}: ${String(error.message).slice(0, 160)}${alsoTried}`,
        exchange,
      };
    return { ok: false, rejected: false, why: `${exchange.failure?.message ?? 'no result'}${alsoTried}`, exchange };
  }
  if (exact && result.protocolVersion !== undefined && result.protocolVersion !== offered) {
    return {
      ok: false,
      rejected: true,
      why:
        `initialize offered ${offered}, and the server answered with protocol version ` +
        `${shownVersion(result.protocolVersion)}`,
      exchange,
    };
  }
  const agreed = agreedWire(result.protocolVersion, offered);
  const wire = agreed.wire;
  const why = late
    ? `${agreed.why} (its answer came ${late.afterMs} ms after it was sent, late for the ${late.timeoutMs} ms it ` +
      `was given)`
    : agreed.why;
  client.wire = wire;
  client.initializeVersion = wire;
  const session = exchange.responseHeaders?.['mcp-session-id'];
  if (session) client.sessionId = session;
  await client.notify('notifications/initialized');
  await client.openServerStream();
  return { ok: true, wire, why, exchange };
}

/**
 * 2025-03-26 basic/transports § Backwards Compatibility: an initialize POST that "fails with an HTTP 4xx status code
 * (e.g., 405 Method Not Allowed or 404 Not Found)" has the client GET the URL, and an event stream that starts with
 * `endpoint` means the deprecated HTTP+SSE transport. Only those two statuses are taken as that sign: other 4xx (401,
 * 403, 400) are what a Streamable HTTP server refuses a request with. Undefined when the sign is not there.
 */
async function httpSseFallback(
  client: McpClient,
  exchange: Exchange,
): Promise<{ found: boolean; why: string } | undefined> {
  const transport = client.transport;
  if (transport.kind !== 'http' || !transport.fallBackToHttpSse || (exchange.status !== 404 && exchange.status !== 405))
    return undefined;
  const { found, why } = await transport.fallBackToHttpSse();
  const refused = `the initialize POST was answered HTTP ${exchange.status}`;
  return {
    found,
    why: found ? `${refused}, and ${why}` : `${refused}, and no HTTP+SSE transport was found there either: ${why}`,
  };
}

/** During negotiation a vanished target is "unavailable" (exit 3), not a finding. */
async function guard(send: () => Promise<Exchange>): Promise<Exchange> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof TargetGoneError) {
      // A connection that fails during the handshake: the target is not there for any revision.
      throw error.exchange.failure?.kind === 'connection'
        ? new TargetNotStartedError(error.message)
        : new TargetUnavailableError(error.message);
    }
    throw error;
  }
}
