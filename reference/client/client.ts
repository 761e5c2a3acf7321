import type { Defects } from './defects/active.js';
import { fetchNetworkRefs, sendStrayMessages } from './defect-messages.js';
import { discover } from './discover.js';
import { requestMeta } from './request-meta.js';
import { printLine, printListed } from './output-line.js';
import { Rpc } from './rpc.js';
import { admitTools, type CallableTool } from './tool-admission.js';
import { CallSession, callTool, type FirstRequest } from './tool-call.js';
import { listAllTools } from './tools-list.js';
import type { Transport } from './transport.js';

/**
 * The whole run: discover, list every page, then call every admitted tool once, in listing order, one at a
 * time, printing one line per call. Throws Fatal when the server cannot be reached or listed.
 */
export async function runClient(transport: Transport, defects: Defects): Promise<void> {
  const rpc = new Rpc(transport, defects);
  try {
    if (defects.has('stdin-garbage') && rpc.kind === 'stdio') await rpc.sendRaw(Buffer.from('hello server', 'utf8'));
    const capabilities = defects.has('no-discover') ? undefined : await discover(rpc, defects);
    const changes = watchToolChanges(rpc, capabilities, defects);
    const listing = await listAllTools(rpc, defects);
    printListed(listing.tools.length);
    const tools = admitTools(listing.tools, rpc.kind, defects);
    await sendStrayMessages(rpc, defects, listing.lastId);
    if (defects.has('fetches-network-ref')) await fetchNetworkRefs(tools);
    await callAll(rpc, tools, defects);
    // The listing is needed again: served from the cache while fresh (never at ttlMs 0, nor after list_changed).
    const fresh = (Date.now() < listing.freshUntil && !changes.seen) || defects.has('caches-stale-listing');
    printListed(fresh ? listing.tools.length : (await listAllTools(rpc, defects)).tools.length);
    await changes.stop();
  } finally {
    await rpc.close();
  }
}

/**
 * When the server says its tool list can change, a subscription that hears it: `seen` turns true on
 * notifications/tools/list_changed (never, with the ignores-list-changed defect).
 */
function watchToolChanges(
  rpc: Rpc,
  capabilities: Record<string, unknown> | undefined,
  defects: Defects,
): { seen: boolean; stop(): Promise<void> } {
  const watch = { seen: false, stop: async () => {} };
  const tools = capabilities?.tools;
  if (
    typeof tools !== 'object' ||
    tools === null ||
    (tools as Record<string, unknown>).listChanged !== true ||
    defects.has('caches-stale-listing') ||
    defects.has('caches-later-pages')
  )
    return watch;
  const params = {
    _meta: requestMeta({ withCapabilities: true, withClientInfo: !defects.has('no-client-info') }),
    notifications: { toolsListChanged: true },
  };
  watch.stop = rpc.listen(params, (message) => {
    if (message.method === 'notifications/tools/list_changed' && !defects.has('ignores-list-changed'))
      watch.seen = true;
  });
  return watch;
}

async function callAll(rpc: Rpc, tools: readonly CallableTool[], defects: Defects): Promise<void> {
  const session = new CallSession();
  const first: FirstRequest = {
    ...(defects.has('fractional-id') ? { id: 1.5 } : {}),
    ...(defects.has('fractional-progress-token') ? { progressToken: 1.5 } : {}),
  };
  let next = 0;
  // Two defects send the first two calls at once, sharing the id or the progress token.
  if ((defects.has('reused-id-in-flight') || defects.has('reused-progress-token')) && tools.length >= 2) {
    const shared: FirstRequest = {
      ...first,
      ...(defects.has('reused-id-in-flight') ? { id: first.id ?? rpc.ids.next() } : {}),
      ...(defects.has('reused-progress-token') ? { progressToken: session.nextProgressToken() } : {}),
    };
    const lines = await Promise.all([
      callTool(rpc, tools[0]!, defects, session, shared),
      callTool(rpc, tools[1]!, defects, session, shared),
    ]);
    lines.forEach(printLine);
    next = 2;
  }
  for (; next < tools.length; next++) {
    printLine(await callTool(rpc, tools[next]!, defects, session, next === 0 ? first : {}));
  }
}
