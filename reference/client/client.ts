import type { Defects } from './defects/active.js';
import type { CallIds, SessionRules } from './defects/seams/session.js';
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
  const rules: SessionRules = {
    discovers: true,
    watchesToolChanges: true,
    listChangedMakesStale: true,
    listingExpires: true,
  };
  defects.at.sessionRules(rules);
  try {
    const opening = defects.at.openingBytes(rpc.kind);
    if (opening) await rpc.sendRaw(opening);
    const capabilities = rules.discovers ? await discover(rpc, defects) : undefined;
    const changes = watchToolChanges(rpc, capabilities, rules, defects);
    const listing = await listAllTools(rpc, defects);
    printListed(listing.tools.length);
    const tools = admitTools(listing.tools, rpc.kind, defects);
    const messages: Record<string, unknown>[] = [];
    defects.at.messagesAfterListing(messages, { lastId: listing.lastId, nextId: () => rpc.ids.next() });
    for (const message of messages) await rpc.send(message);
    await defects.at.toolsAdmitted(tools);
    await callAll(rpc, tools, defects);
    // The listing is needed again: served from the cache while fresh (never at ttlMs 0, nor after list_changed).
    const fresh = (Date.now() < listing.freshUntil && !changes.seen) || !rules.listingExpires;
    printListed(fresh ? listing.tools.length : (await listAllTools(rpc, defects)).tools.length);
    await changes.stop();
  } finally {
    await rpc.close();
  }
}

/**
 * When the server says its tool list can change (and the rules watch it), a subscription that hears it: `seen` turns
 * true on notifications/tools/list_changed (when the rules let it make the listing stale).
 */
function watchToolChanges(
  rpc: Rpc,
  capabilities: Record<string, unknown> | undefined,
  rules: SessionRules,
  defects: Defects,
): { seen: boolean; stop(): Promise<void> } {
  const watch = { seen: false, stop: async () => {} };
  const tools = capabilities?.tools;
  if (
    typeof tools !== 'object' ||
    tools === null ||
    (tools as Record<string, unknown>).listChanged !== true ||
    !rules.watchesToolChanges
  )
    return watch;
  const meta = { withCapabilities: true, withClientInfo: true };
  defects.at.metaOptions(meta, 'subscriptions/listen');
  const params = { _meta: requestMeta(meta), notifications: { toolsListChanged: true } };
  watch.stop = rpc.listen(params, (message) => {
    if (message.method === 'notifications/tools/list_changed' && rules.listChangedMakesStale) watch.seen = true;
  });
  return watch;
}

async function callAll(rpc: Rpc, tools: readonly CallableTool[], defects: Defects): Promise<void> {
  const session = new CallSession();
  const first: FirstRequest = {};
  defects.at.firstCall(first);
  let next = 0;
  const shared: CallIds = { ...first };
  const fresh = { id: () => rpc.ids.next(), progressToken: () => session.nextProgressToken() };
  if (tools.length >= 2 && defects.at.concurrentCalls(shared, fresh)) {
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
