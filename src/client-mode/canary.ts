import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CanaryHit } from '../model/client-observation.js';

/** A loopback listener that schemas name in `$ref`s: any request it receives is a dereference the client made. */
export async function startCanary(): Promise<{ origin: string; hits: CanaryHit[]; close(): Promise<void> }> {
  const hits: CanaryHit[] = [];
  const server = createServer((req, res) => {
    if (hits.length < 100)
      hits.push({
        at: new Date().toISOString(),
        kind: 'network',
        detail: `${req.method ?? ''} ${req.url ?? ''}`.slice(0, 300),
      });
    res.writeHead(404, { connection: 'close' });
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
