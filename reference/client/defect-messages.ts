import { isObject, type JsonRpcId } from '../../src/core/jsonrpc.js';
import type { Defects } from './defects/active.js';
import { warn } from './log.js';
import type { Rpc } from './rpc.js';
import type { CallableTool } from './tool-admission.js';

/** Messages only a defective client sends after listing: a notification with an id, a stray response. */
export async function sendStrayMessages(rpc: Rpc, defects: Defects, earlierId: JsonRpcId): Promise<void> {
  if (defects.has('notification-with-id')) {
    await rpc.send({
      jsonrpc: '2.0',
      id: rpc.ids.next(),
      method: 'notifications/cancelled',
      params: { requestId: earlierId, reason: 'reference-client defect notification-with-id' },
    });
  }
  if (defects.has('cancels-unknown-request')) {
    await rpc.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'reference-client-never-issued', reason: 'reference-client defect cancels-unknown-request' },
    });
  }
  if (defects.has('sends-response')) {
    await rpc.send({ jsonrpc: '2.0', id: 'reference-client-stray', result: {} });
  }
}

const NETWORK_REF_TIMEOUT_MS = 2_000;

/** The `fetches-network-ref` defect: GETs every http(s) `$ref` in the tools' schemas, ignoring the outcome. */
export async function fetchNetworkRefs(tools: readonly CallableTool[]): Promise<void> {
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
