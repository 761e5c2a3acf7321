import { McpClient } from '../protocol/client.js';
import type { Negotiation } from '../protocol/negotiate.js';
import type { ToolWalk } from '../protocol/tool-walk.js';
import type { RunReport } from '../model/report.js';
import type { Exchange } from '../model/exchange.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotFormatError, type Snapshot } from './format.js';
import { LATEST_REVISION } from '../core/revision.js';

/** The negotiation exchange and every page, exactly as received. */
export function buildSnapshot(
  client: McpClient,
  negotiation: Negotiation,
  walk: ToolWalk,
  target: RunReport['target'],
): Snapshot {
  const opening: Exchange | undefined = negotiation.discover ?? negotiation.initialize;
  const exchanges = [...(opening ? [opening] : []), ...walk.pages.map((p) => p.exchange)].map((e) => ({
    request: e.request,
    response: e.response,
  }));
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    capturedAt: new Date().toISOString(),
    capturedBy: client.clientInfo,
    target: {
      transport: target.transport === 'http' ? 'http' : 'stdio',
      ...(target.command ? { command: target.command } : {}),
      ...(target.url ? { url: target.url } : {}),
    },
    wire: { protocolVersion: negotiation.wire, reason: negotiation.reason },
    exchanges,
  };
}

/** The negotiation a replayed snapshot stands for: its wire, and its recorded opening exchange. */
export async function replayNegotiation(client: McpClient, snapshot: Snapshot, file: string): Promise<Negotiation> {
  client.wire = snapshot.wire.protocolVersion;
  const reason = `from snapshot ${file} (captured ${snapshot.capturedAt}; ${snapshot.wire.reason})`;
  const method = snapshot.wire.protocolVersion === LATEST_REVISION ? 'server/discover' : 'initialize';
  const opening = await client.request(method, {}, { probe: true });
  if (opening.failure) throw new SnapshotFormatError(`${file} holds no ${method} answer`);
  const wire = snapshot.wire.protocolVersion;
  return wire === LATEST_REVISION ? { wire, reason, discover: opening } : { wire, reason, initialize: opening };
}
