import { readFile } from 'node:fs/promises';
import { isObject } from '../../jsonrpc.js';
import { parseSnapshot } from '../../snapshot/format.js';
import type { ServerTools } from '../cross-server.js';

/** Each server's own listing, saved by its audit (--snapshot-out) beside its report.json. */
export const LISTING_FILE = 'tools.json';

/**
 * The tools a server's audit listed, read back from the snapshot it saved: what the cross-server findings read.
 * Undefined when its audit saved none (no check listed the tools, or the server was lost first).
 */
export async function readListing(file: string, server: string): Promise<ServerTools | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  let snapshot;
  try {
    snapshot = parseSnapshot(text, file);
  } catch {
    return undefined;
  }
  const tools = snapshot.exchanges.flatMap(({ request, response }) => {
    if (!isObject(request) || request.method !== 'tools/list' || !isObject(response) || !isObject(response.result)) return [];
    const listed = response.result.tools;
    return Array.isArray(listed) ? listed.filter((tool): tool is Record<string, unknown> => isObject(tool) && typeof tool.name === 'string') : [];
  });
  return {
    name: server,
    tools: tools.map((tool) => ({
      name: tool.name as string,
      ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    })),
  };
}
