import { DISCOVER_TTL_MS, SUPPORTED_VERSIONS } from './constants.js';
import type { ActiveDefects } from './defects/active.js';
import { serverInfoMeta } from './result-meta.js';

const INSTRUCTIONS =
  'Reference server for MCP tools conformance testing. Tools are simulated: weather and documentation search return ' +
  'canned data, notes live in memory only, and confirm_action asks the user through a form elicitation.';

export function discoverResult(defects: ActiveDefects): Record<string, unknown> {
  const result: Record<string, unknown> = {
    resultType: 'complete',
    supportedVersions: [...SUPPORTED_VERSIONS],
    capabilities: serverCapabilities(defects),
    _meta: serverInfoMeta(),
    instructions: INSTRUCTIONS,
    ttlMs: DISCOVER_TTL_MS,
    cacheScope: 'public',
  };
  defects.at.discoverResult(result);
  return result;
}

function serverCapabilities(defects: ActiveDefects): Record<string, unknown> {
  const capabilities: Record<string, unknown> = { tools: { listChanged: true } };
  return defects.at.serverCapabilities(capabilities) ?? capabilities;
}
