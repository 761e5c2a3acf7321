import { DISCOVER_TTL_MS, SUPPORTED_VERSIONS } from './constants.js';
import type { ActiveDefects } from './defects/active.js';
import { serverInfoMeta } from './result-meta.js';

const INSTRUCTIONS =
  'Reference server for MCP tools conformance testing. Tools are simulated: weather and documentation search return ' +
  'canned data, notes live in memory only, and confirm_action asks the user through a form elicitation.';

export function discoverResult(defects: ActiveDefects): Record<string, unknown> {
  const result: Record<string, unknown> = {
    resultType: defects.has('unknown-result-type') ? 'ok' : 'complete',
    supportedVersions: [...SUPPORTED_VERSIONS],
    capabilities: serverCapabilities(defects),
    _meta: defects.has('meta-key-bad-name')
      ? { ...serverInfoMeta(), 'com.example/_trace': 'discover-1' }
      : serverInfoMeta(),
    instructions: defects.has('bad-instructions') ? 42 : INSTRUCTIONS,
    ttlMs: defects.has('negative-ttl') ? -1 : DISCOVER_TTL_MS,
    cacheScope: 'public',
  };
  if (defects.has('supported-versions-missing')) delete result.supportedVersions;
  if (defects.has('supported-versions-omits-served')) result.supportedVersions = ['2025-11-25'];
  if (defects.has('no-server-info')) delete result._meta;
  return result;
}

/**
 * Defects that make the server send notifications/message (all but log-without-capability, whose rule is the
 * declaration).
 */
const LOGGING_DEFECTS = ['log-without-level', 'log-below-level', 'log-on-listen', 'log-after-cancel'] as const;

function serverCapabilities(defects: ActiveDefects): Record<string, unknown> {
  if (defects.has('no-tools-capability')) return {};
  const capabilities: Record<string, unknown> = {
    tools: { listChanged: defects.has('list-changed-not-boolean') ? 'yes' : true },
  };
  // The servers of the other defects that log declare it, so that only the rule each breaks is broken.
  if (LOGGING_DEFECTS.some((name) => defects.has(name))) capabilities.logging = {};
  if (defects.has('extension-id-unprefixed')) capabilities.extensions = { tasks: {} };
  if (defects.has('task-result-unnegotiated')) capabilities.extensions = { 'io.modelcontextprotocol/tasks': {} };
  return capabilities;
}
