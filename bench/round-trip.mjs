import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { ROOT, median } from './measure.mjs';

const load = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

/**
 * The round-trip floor: `count` plain requests (tools/list, first page), one at a time, over our own transport
 * against the same server the audit talks to. `target` is { stdio: commandLine } or { url }.
 */
export async function medianRoundTrip(target, { count = 50, warmUp = 5, method = 'tools/list' } = {}) {
  const { McpClient } = await load('src/protocol/client.js');
  const { negotiate } = await load('src/protocol/negotiate.js');
  let transport;
  if (target.url) {
    const { HttpTransport } = await load('src/transport/http.js');
    transport = new HttpTransport({ url: target.url, timeoutMs: 10_000 });
  } else {
    const { StdioTransport } = await load('src/transport/stdio.js');
    transport = new StdioTransport({ command: target.stdio, timeoutMs: 10_000 });
  }
  const client = new McpClient(transport, { name: 'mcp-tools-conformance-bench', version: '0' });
  try {
    await transport.start();
    await negotiate(client, 'auto');
    const times = [];
    for (let i = 0; i < warmUp + count; i += 1) {
      const started = performance.now();
      const exchange = await client.request(method);
      if (exchange.response === undefined)
        throw new Error(`${method} got no answer: ${exchange.failure?.message ?? 'unknown'}`);
      if (i >= warmUp) times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    await transport.close();
  }
}
