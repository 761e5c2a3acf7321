import type { Defects } from './defects.js';
import { fetchNetworkRefs, sendStrayMessages } from './defect-messages.js';
import { discover } from './discover.js';
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
    if (!defects.has('no-discover')) await discover(rpc, defects);
    const listing = await listAllTools(rpc, defects);
    printListed(listing.tools.length);
    const tools = admitTools(listing.tools, rpc.kind, defects);
    await sendStrayMessages(rpc, defects, listing.lastId);
    if (defects.has('fetches-network-ref')) await fetchNetworkRefs(tools);
    await callAll(rpc, tools, defects);
    // The listing is needed again: served from the cache while fresh (never, at ttlMs 0), else fetched again.
    const fresh = Date.now() < listing.freshUntil || defects.has('caches-stale-listing');
    printListed(fresh ? listing.tools.length : (await listAllTools(rpc, defects)).tools.length);
  } finally {
    await rpc.close();
  }
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
    const lines = await Promise.all([callTool(rpc, tools[0]!, defects, session, shared), callTool(rpc, tools[1]!, defects, session, shared)]);
    lines.forEach(printLine);
    next = 2;
  }
  for (; next < tools.length; next++) {
    printLine(await callTool(rpc, tools[next]!, defects, session, next === 0 ? first : {}));
  }
}
