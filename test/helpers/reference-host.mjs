// One process that serves many reference servers over HTTP for test/helpers/cli.ts (startReferenceHttp): each
// is what `reference-server --http <args>` serves (the same parsing, preparation and HTTP server, from the build's
// unbundled output), on a port of its own with state of its own, started and closed on request. A node process
// costs ~0.2 s of CPU to start; test/defects.test.ts starts some 70 HTTP servers. It exits when the test process
// that forked it goes away.
import { pathToFileURL } from 'node:url';

const dir = process.argv[2];
const { parseCliArgs } = await import(pathToFileURL(`${dir}/cli-args.js`).href);
const { prepareServe, serveHttp } = await import(pathToFileURL(`${dir}/serve.js`).href);

const servers = new Map();
let next = 0;

process.on('disconnect', () => process.exit(0));

process.on('message', async ({ id, start, stop }) => {
  try {
    if (start) {
      const command = parseCliArgs(['--http', ...start]);
      if (command.kind !== 'serve')
        throw new Error(`reference-server ${start.join(' ')}: ${command.message ?? command.kind}`);
      const log = (line) => process.stderr.write(`[reference-server ${next}] ${line}\n`);
      const server = await serveHttp(command, await prepareServe(command, log), log);
      const key = next++;
      servers.set(key, server);
      process.send({ id, key, url: server.url });
    } else {
      await servers.get(stop)?.close();
      servers.delete(stop);
      process.send({ id });
    }
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});

process.send({ ready: true });
