import { META_SERVER_INFO, SERVER_INFO } from './constants.js';

export function serverInfoMeta(): Record<string, unknown> {
  return { [META_SERVER_INFO]: { ...SERVER_INFO } };
}
