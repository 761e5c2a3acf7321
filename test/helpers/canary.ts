import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP server that records every request: put its URL in a schema to prove nothing is fetched. */
export async function startCanary(): Promise<{ base: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.setHeader('content-type', 'application/schema+json');
    response.end('{"type":"string"}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
