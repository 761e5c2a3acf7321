import { arrivalLog, type ArrivalLog } from './arrival-log.js';
import type { CliCommand } from './cli-args.js';
import type { RunningHttpServer } from './http.js';
import type { ListingScale } from './scale-tools.js';
import { isInitializeRevision, REVISION_RULES, type Revision } from './revisions.js';
import { activeDefects } from './defects/index.js';

/** A parsed command line that serves. */
export type ServeCommand = Extract<CliCommand, { kind: 'serve' }>;

/** What serving a command needs besides its transport: the arrival log, the listing's scale, the defects named. */
export interface ServePreparation {
  onArrival?: ArrivalLog;
  scale?: ListingScale;
  defectNote: string;
}

export async function prepareServe(command: ServeCommand, log: (line: string) => void): Promise<ServePreparation> {
  const onArrival = arrivalLog(command.arrivalLog);
  const scale = await listingScale(command.scaleTools, command.bigPageMb, command.failingTools, log);
  const defectNote = command.defects.size > 0 ? ` with defects: ${[...command.defects].join(', ')}` : '';
  return { ...(onArrival ? { onArrival } : {}), ...(scale ? { scale } : {}), defectNote };
}

/**
 * Serves the command over HTTP (Streamable HTTP, or HTTP+SSE on the revisions that had it) until `close`: what
 * `reference-server --http …` runs, and what the self-tests' host of several reference servers
 * (test/helpers/reference-host.mjs) runs for each.
 */
export async function serveHttp(
  command: ServeCommand,
  prepared: ServePreparation,
  log: (line: string) => void,
): Promise<RunningHttpServer> {
  // Imported here so --list-defects and usage errors stay fast.
  const { startHttpServer } = await import('./http.js');
  const { onArrival, scale } = prepared;
  const server = await startHttpServer({
    port: command.port,
    sse: command.sse,
    defects: activeDefects(command.defects),
    ...(isInitializeRevision(command.protocolVersion) ? { revision: command.protocolVersion } : {}),
    log,
    ...(onArrival ? { onArrival } : {}),
    ...(command.rateLimitOnce !== undefined ? { rateLimitOnce: command.rateLimitOnce } : {}),
    ...(scale ? { scale } : {}),
    ...command.latency,
  });
  log(
    `serving MCP ${served(command.protocolVersion)} over ` +
      String(
        isInitializeRevision(command.protocolVersion) && REVISION_RULES[command.protocolVersion].http === 'http+sse'
          ? 'HTTP+SSE'
          : 'Streamable HTTP',
      ) +
      `${command.sse ? ' (SSE responses)' : ''}${prepared.defectNote}`,
  );
  return server;
}

export function served(revision: Revision): string {
  return isInitializeRevision(revision) ? `${revision} (initialize; older initialize revisions too)` : revision;
}

async function listingScale(
  scaleTools: number | undefined,
  bigPageMb: number | undefined,
  failing: number | undefined,
  log: (line: string) => void,
): Promise<ListingScale | undefined> {
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
