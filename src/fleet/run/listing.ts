import { readFile } from 'node:fs/promises';
import { isObject } from '../../core/jsonrpc.js';
import { parseSnapshot } from '../../snapshot/format.js';
import type { ServerTools } from '../cross-server.js';

/** Each server's own listing, saved by its audit (--snapshot-out) beside its report.json. */
export const LISTING_FILE = 'tools.json';

/**
 * Every tool a server's audit listed, as listed, read back from the snapshot it saved, and whether the walk was
 * complete (its last page has no next cursor). Undefined when its audit saved none (no check listed the tools, or the
 * server was lost first).
 */
export async function readListedTools(
  file: string,
): Promise<{ tools: Record<string, unknown>[]; complete: boolean } | undefined> {
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
  const pages = snapshot.exchanges.filter(({ request }) => isObject(request) && request.method === 'tools/list');
  const tools = pages.flatMap(({ response }) => {
    if (!isObject(response) || !isObject(response.result)) return [];
    const listed = response.result.tools;
    return Array.isArray(listed)
      ? listed.filter((tool): tool is Record<string, unknown> => isObject(tool) && typeof tool.name === 'string')
      : [];
  });
  const last = pages.at(-1)?.response;
  const complete =
    isObject(last) &&
    isObject(last.result) &&
    Array.isArray(last.result.tools) &&
    typeof last.result.nextCursor !== 'string';
  return { tools, complete };
}

/** The tools a server's audit listed, named and described: what the cross-server findings read. */
export async function readListing(file: string, server: string): Promise<ServerTools | undefined> {
  const listed = await readListedTools(file);
  if (!listed) return undefined;
  return {
    name: server,
    tools: listed.tools.map((tool) => ({
      name: tool.name as string,
      ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    })),
  };
}
