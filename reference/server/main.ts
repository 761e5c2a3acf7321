import { arrivalLog } from './arrival-log.js';
import { USAGE, parseCliArgs } from './cli-args.js';
import { formatDefectList } from './defects.js';
import type { ListingScale } from './scale-tools.js';
import { isInitializeRevision, REVISION_RULES, type Revision } from './revisions.js';

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
  const onArrival = arrivalLog(command.arrivalLog);
  const scale = await listingScale(command.scaleTools, command.bigPageMb, command.failingTools);
  const defectNote = command.defects.size > 0 ? ` with defects: ${[...command.defects].join(', ')}` : '';
  if (command.transport === 'stdio') {
    const { runStdioServer } = await import('./stdio.js');
    log(`serving MCP ${served(command.protocolVersion)} over stdio${defectNote}`);
    // Without its stdin the process would have nothing left to wait for; this keeps it up until a signal.
    if (command.defects.has('ignore-stdin-eof')) setInterval(() => {}, 60_000);
    runStdioServer({
      input: process.stdin,
      output: process.stdout,
      defects: command.defects,
      ...(isInitializeRevision(command.protocolVersion) ? { revision: command.protocolVersion } : {}),
      log,
      exit: (code) => process.exit(code),
      ...(onArrival ? { onArrival } : {}),
      ...(scale ? { scale } : {}),
      ...command.latency,
    });
    return;
  }
  const { startHttpServer } = await import('./http.js');
  const server = await startHttpServer({
    port: command.port,
    sse: command.sse,
    defects: command.defects,
    ...(isInitializeRevision(command.protocolVersion) ? { revision: command.protocolVersion } : {}),
    log,
    ...(onArrival ? { onArrival } : {}),
    ...(command.rateLimitOnce !== undefined ? { rateLimitOnce: command.rateLimitOnce } : {}),
    ...(scale ? { scale } : {}),
    ...command.latency,
  });
  log(`serving MCP ${served(command.protocolVersion)} over ${isInitializeRevision(command.protocolVersion) && REVISION_RULES[command.protocolVersion].http === 'http+sse' ? 'HTTP+SSE' : 'Streamable HTTP'}${command.sse ? ' (SSE responses)' : ''}${defectNote}`);
  process.stdout.write(`listening on ${server.url}\n`);
  const shutdown = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

function served(revision: Revision): string {
  return isInitializeRevision(revision) ? `${revision} (initialize; older initialize revisions too)` : revision;
}

async function listingScale(scaleTools: number | undefined, bigPageMb: number | undefined, failing: number | undefined): Promise<ListingScale | undefined> {
  if (scaleTools === undefined && bigPageMb === undefined && failing === undefined) return undefined;
  const { bigPage, failingTools, scaledTools } = await import('./scale-tools.js');
  if (failing !== undefined) {
    log(`listing ${failing} generated tools whose every call fails, instead of the reference ones`);
    return failingTools(failing);
  }
  const scale = bigPageMb !== undefined ? bigPage(bigPageMb) : scaledTools(scaleTools ?? 0);
  log(`listing ${scale.tools.length} generated tools besides the reference ones`);
  return scale;
}

main().catch((error: unknown) => {
  log(`fatal: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  process.exit(1);
});
