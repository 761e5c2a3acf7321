import { errorOf, isObject, resultOf } from '../../src/core/jsonrpc.js';
import { PROTOCOL_VERSION } from './constants.js';
import type { Defects } from './defects/active.js';
import type { DiscoverSending } from './defects/seams/session.js';
import { Fatal } from './fatal.js';
import { warn } from './log.js';
import { requestMeta } from './request-meta.js';
import type { Rpc } from './rpc.js';
import { RequestFailure } from './transport.js';
import { jsonBytes } from './wire.js';

/**
 * `server/discover` first. Only an unreachable server stops the run; an error answer is reported and ignored. Resolves
 * with the server's capabilities, when it said.
 */
export async function discover(rpc: Rpc, defects: Defects): Promise<Record<string, unknown> | undefined> {
  const meta = { withCapabilities: true, withClientInfo: true };
  defects.at.metaOptions(meta, 'server/discover');
  const params: Record<string, unknown> = { _meta: requestMeta(meta) };
  defects.at.discoverParams(params);
  const sending: DiscoverSending = { wire: jsonBytes };
  defects.at.discoverSending(sending, rpc.kind);
  try {
    const { response } = await rpc.request('server/discover', params, sending);
    const error = errorOf(response);
    const result = resultOf(response);
    if (error) {
      warn(`server/discover failed: ${String(error.message)} (code ${String(error.code)})`);
    } else if (Array.isArray(result?.supportedVersions) && !result.supportedVersions.includes(PROTOCOL_VERSION)) {
      warn(`the server does not list ${PROTOCOL_VERSION} among its supportedVersions`);
    }
    return isObject(result?.capabilities) ? result.capabilities : undefined;
  } catch (error) {
    if (error instanceof RequestFailure && error.kind === 'unreachable')
      throw new Fatal(`could not connect: ${error.message}`);
    warn(`server/discover failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return undefined;
}
