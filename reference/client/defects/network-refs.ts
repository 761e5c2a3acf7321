import { isObject } from '../../../src/core/jsonrpc.js';
import { warn } from '../log.js';
import type { AdmittedTool } from './seams/session.js';

const NETWORK_REF_TIMEOUT_MS = 2_000;

/** The `fetches-network-ref` defect: GETs every http(s) `$ref` in the tools' schemas, ignoring the outcome. */
export async function fetchNetworkRefs(tools: readonly AdmittedTool[]): Promise<void> {
  const uris = new Set<string>();
  for (const tool of tools) {
    collectRefs(tool.definition.inputSchema, uris);
    collectRefs(tool.definition.outputSchema, uris);
  }
  await Promise.all(
    [...uris].map(async (uri) => {
      warn(`fetching $ref ${uri}`);
      try {
        const response = await fetch(uri, { signal: AbortSignal.timeout(NETWORK_REF_TIMEOUT_MS) });
        await response.arrayBuffer();
      } catch {
        // Ignored on purpose: only the attempt matters.
      }
    }),
  );
}

function collectRefs(node: unknown, uris: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, uris);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && /^https?:\/\//i.test(value)) uris.add(value);
      else collectRefs(value, uris);
    }
  }
}
