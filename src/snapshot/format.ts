import { isObject } from '../core/jsonrpc.js';
import { isRevision, REVISIONS, type Revision } from '../core/revision.js';

export const SNAPSHOT_FORMAT = 'mcp-tools-conformance/snapshot';
export const SNAPSHOT_VERSION = 1;

export interface SnapshotExchange {
  request: unknown;
  response: unknown;
}

/** A complete tool listing as one server answered it, enough to run every static check offline. */
export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  capturedAt: string;
  capturedBy: { name: string; version: string };
  target: { transport: 'stdio' | 'http'; command?: string; url?: string };
  wire: { protocolVersion: Revision; reason: string };
  /** server/discover (2026-07-28) or initialize (an initialize revision), then every tools/list page in order. */
  exchanges: SnapshotExchange[];
}

export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
  }
}

export function parseSnapshot(text: string, source: string): Snapshot {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SnapshotFormatError(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(data) || data.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotFormatError(
      `${source} is not a snapshot (expected "format": "${SNAPSHOT_FORMAT}"; create one with ` +
        `\`mcp-tools-conformance snapshot\`)`,
    );
  }
  if (data.version !== SNAPSHOT_VERSION)
    throw new SnapshotFormatError(`${source}: unsupported snapshot version ${JSON.stringify(data.version)}`);
  const wire = isObject(data.wire) ? data.wire.protocolVersion : undefined;
  if (!isRevision(wire))
    throw new SnapshotFormatError(`${source}: wire.protocolVersion must be one of ${REVISIONS.join(', ')}`);
  if (
    !Array.isArray(data.exchanges) ||
    !data.exchanges.every((e) => isObject(e) && 'request' in e && 'response' in e)
  ) {
    throw new SnapshotFormatError(`${source}: exchanges must be an array of {request, response}`);
  }
  return data as unknown as Snapshot;
}
