import { USAGE, parseCliArgs } from './cli-args.js';
import { activeDefects, formatDefectList } from './defects/index.js';
import { isInitializeRevision } from './revisions.js';
import { prepareServe, served, serveHttp } from './serve.js';

const log = (line: string): void => {
  process.stderr.write(`[reference-server] ${line}\n`);
};

async function main(): Promise<void> {
  const command = parseCliArgs(process.argv.slice(2));
  switch (command.kind) {
    case 'list-defects':
      process.stdout.write(`${formatDefectList()}\n`);
      return;
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return;
    case 'error':
      process.stderr.write(`reference-server: ${command.message}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    case 'serve':
      break;
  }
  // Transports are imported here so --list-defects and usage errors stay fast.
  const prepared = await prepareServe(command, log);
  const { onArrival, scale, defectNote } = prepared;
  if (command.transport === 'stdio') {
    const { runStdioServer, stdioRules } = await import('./stdio.js');
    const defects = activeDefects(command.defects);
    log(`serving MCP ${served(command.protocolVersion)} over stdio${defectNote}`);
    // Without its stdin the process would have nothing left to wait for; this keeps it up until a signal.
    if (stdioRules(defects).stayUpAfterEof !== undefined) setInterval(() => {}, 60_000);
    runStdioServer({
      input: process.stdin,
      output: process.stdout,
      defects,
      ...(isInitializeRevision(command.protocolVersion) ? { revision: command.protocolVersion } : {}),
      log,
      exit: (code) => process.exit(code),
      ...(onArrival ? { onArrival } : {}),
      ...(scale ? { scale } : {}),
      ...command.latency,
    });
    return;
  }
  const server = await serveHttp(command, prepared, log);
  process.stdout.write(`listening on ${server.url}\n`);
  const shutdown = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  log(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
