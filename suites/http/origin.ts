import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  errorOf,
  type Exchange,
  type Outcome,
  resultOf,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';

const SPEC = 'basic/transports/streamable-http';
const ENDPOINT_SECURITY_REF = `${SPEC}#security--endpoint`;
const SECURITY_WARNING_REF = 'basic/transports#security-warning';
const VALIDATE = 'Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks';
const FORBIDDEN = 'If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden.';
/** A web page's origin that no local server has reason to trust: the DNS-rebinding case the rule exists for. */
export const FOREIGN_ORIGIN = 'http://attacker.example';

interface OriginProbes {
  foreign: Exchange;
  withoutOrigin: Exchange;
  own: Exchange;
  ownOrigin: string;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

const served = (e: Exchange) => resultOf(e.response) !== undefined;

const describe = (e: Exchange) => {
  const error = errorOf(e.response);
  const body = served(e)
    ? 'a result'
    : error
      ? `error ${String(error.code)}`
      : e.failure
        ? e.failure.message
        : 'no JSON-RPC body';
  return `HTTP ${e.status ?? '—'} with ${body}`;
};

/**
 * Which origins a server allows is its own choice, so only a loopback target is judged: there a foreign web origin is
 * certainly not one it may serve. The same tools/list without Origin must be served, or a rejection proves nothing.
 */
function probeOrigins(ctx: CheckContext): Promise<OriginProbes | string> {
  return ctx.memo('origin-probes', async () => {
    const ownOrigin = ctx.targetOrigin;
    if (ownOrigin === undefined) return 'the target URL has no origin';
    const host = new URL(ownOrigin).hostname;
    if (!isLoopbackHost(host)) {
      return (
        `the allowed origins are the server's choice; only on a loopback target (this one is ${host}) is a ` +
        `foreign origin certainly invalid`
      );
    }
    const list = (headers: Record<string, string>) => ctx.client.request('tools/list', {}, { headers, probe: true });
    const foreign = await list({ Origin: FOREIGN_ORIGIN });
    const withoutOrigin = await list({});
    const own = await list({ Origin: ownOrigin });
    return { foreign, withoutOrigin, own, ownOrigin };
  });
}

async function judged(ctx: CheckContext, verdict: (p: OriginProbes) => Outcome): Promise<Outcome[]> {
  const probes = await probeOrigins(ctx);
  if (typeof probes === 'string') return [skip(probes)];
  if (!served(probes.withoutOrigin)) {
    return [
      skip(
        `the same tools/list without an Origin header was not served either (${describe(probes.withoutOrigin)}` +
          `), so a rejection says nothing about Origin`,
      ),
    ];
  }
  return [verdict(probes)];
}

const context = (p: OriginProbes) =>
  `without Origin: ${describe(p.withoutOrigin)}; with the target's own origin ${p.ownOrigin}: ` +
  `${describe(p.own)} (allowing it is the server's choice)`;

export const originValidated: CheckDefinition = defineCheck({
  id: 'http.origin.validate',
  sentences: {
    '2026-07-28': [{ ref: ENDPOINT_SECURITY_REF, text: `${VALIDATE}.`, keyword: 'MUST' }],
    '2025-11-25': [{ ref: SECURITY_WARNING_REF, text: VALIDATE, keyword: 'MUST' }],
    '2025-06-18': [{ ref: SECURITY_WARNING_REF, text: VALIDATE, keyword: 'MUST' }],
    '2025-03-26': [{ ref: SECURITY_WARNING_REF, text: VALIDATE, keyword: 'MUST' }],
    // 2024-11-05 says it of its HTTP+SSE transport only, not of the Streamable HTTP this check speaks.
  },
  title: 'A loopback server does not serve a request from a foreign Origin (DNS rebinding)',
  area: 'http-headers',
  needs: ['live', 'http'],
  phase: 'serial',
  run: (ctx) =>
    judged(ctx, (p) =>
      served(p.foreign)
        ? fail(
            `tools/list with Origin: ${FOREIGN_ORIGIN} was served (${describe(p.foreign)}); ${context(p)}`,
            'the Origin header validated on every request: a web page on a foreign origin must not reach a ' +
              'local server',
            [p.foreign, p.withoutOrigin],
          )
        : pass(`tools/list with Origin: ${FOREIGN_ORIGIN} was rejected (${describe(p.foreign)}); ${context(p)}`, [
            p.foreign,
            p.withoutOrigin,
            p.own,
          ]),
    ),
});

export const originForbidden: CheckDefinition = defineCheck({
  id: 'http.origin.403',
  sentences: {
    '2026-07-28': [{ ref: ENDPOINT_SECURITY_REF, text: FORBIDDEN, keyword: 'MUST' }],
    // The 403 arrived with 2025-11-25; before, a rejection of any kind was all the page asked for.
    '2025-11-25': [{ ref: SECURITY_WARNING_REF, text: FORBIDDEN.replace(/\.$/, ''), keyword: 'MUST' }],
  },
  title: 'A request with an invalid Origin is answered with HTTP 403',
  area: 'http-headers',
  needs: ['live', 'http'],
  phase: 'serial',
  run: (ctx) =>
    judged(ctx, (p) => {
      if (served(p.foreign)) return skip(`the foreign origin was served, which http.origin.validate reports`);
      if (p.foreign.status === 403)
        return pass(`tools/list with Origin: ${FOREIGN_ORIGIN} was answered ${describe(p.foreign)}`, [p.foreign]);
      return fail(
        `tools/list with Origin: ${FOREIGN_ORIGIN} was rejected with ${describe(p.foreign)} while the same ` +
          `request without Origin was served`,
        'HTTP 403 Forbidden (the body may be a JSON-RPC error without id)',
        [p.foreign, p.withoutOrigin],
      );
    }),
});

export const ORIGIN_CHECKS = [originValidated, originForbidden] as const;
