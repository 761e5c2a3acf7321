import { SERVER_INFO } from './constants.js';
import { META_SERVER_INFO } from '../../src/core/meta-keys.js';

export function serverInfoMeta(): Record<string, unknown> {
  return { [META_SERVER_INFO]: { ...SERVER_INFO } };
}
