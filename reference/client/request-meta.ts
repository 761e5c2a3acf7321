import { CLIENT_INFO, PROTOCOL_VERSION, clientCapabilities } from './constants.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../src/core/meta-keys.js';

export interface MetaOptions {
  withCapabilities: boolean;
  withClientInfo: boolean;
}

/** A fresh `params._meta` for one request. */
export function requestMeta(options: MetaOptions): Record<string, unknown> {
  const meta: Record<string, unknown> = { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION };
  if (options.withCapabilities) meta[META_CLIENT_CAPABILITIES] = clientCapabilities();
  if (options.withClientInfo) meta[META_CLIENT_INFO] = { ...CLIENT_INFO };
  return meta;
}
