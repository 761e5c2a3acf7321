import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  type Exchange,
  type McpClient,
  TargetGoneError,
  TargetUnavailableError,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { LISTING_ONLY } from '../kit/shared-connections.js';

/** "Promptly" made concrete: generous for a process that only has to notice EOF and exit, even on a loaded machine. */
export const EXIT_BOUND_MS = 2000;

export const exitOnStdinEof: CheckDefinition = defineCheck({
  id: 'stdio.shutdown.server-exit',
  title: `The server exits by itself within ${EXIT_BOUND_MS} ms of its stdin being closed`,
  area: 'wire',
  // 2025-11-25 only tells the client how to shut down; the server's side arrives with 2026-07-28.
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/transports/stdio#shutdown',
        text: 'Servers SHOULD exit promptly when their standard input is closed or reads return end-of-file.',
        keyword: 'SHOULD',
      },
    ],
  },
  needs: ['live', 'stdio'],
  // After every other check: the process whose stdin it closes is the listing-only connection others compare with.
  phase: 'last',
  prepare(ctx) {
    ctx.prepareConnection(LISTING_ONLY);
  },
  async run(ctx) {
    if (!ctx.canOpenConnections) return [skip('cannot start a separate process of this target')];
    let client: McpClient;
    let ready: Exchange;
    try {
      client = await ctx.sharedConnection(LISTING_ONLY);
      // A server still starting up would be timed on its start-up too: wait until it has answered once.
      ready = await client.request('server/discover', {}, { probe: true });
    } catch (error) {
      // Thrown by the separate process only: the audited connection is unaffected, so the run goes on.
      if (error instanceof TargetGoneError || error instanceof TargetUnavailableError) {
        return [{ status: 'error', message: `could not get a separate process to answer: ${error.message}` }];
      }
      throw error;
    }
    if (!client.transport.endInput) return [skip("this transport cannot close the target's stdin")];
    if (ready.response === undefined)
      return [
        skip(
          `the separate process did not answer server/discover (${ready.failure?.message ?? 'no response'}), ` +
            `so it was not known to be running`,
        ),
      ];
    const end = await client.transport.endInput(EXIT_BOUND_MS);
    switch (end.kind) {
      case 'already-exited':
        return [skip(`the separate process exited ${end.how} before its stdin was closed`)];
      case 'exited':
        return [pass(`a separate process exited ${end.how} ${end.afterMs} ms after its stdin was closed`, [ready])];
      case 'still-running':
        return [
          fail(
            `a separate process was still running ${end.waitedMs} ms after its stdin was closed (it answered ` +
              `server/discover first, so it was up)`,
            'exit promptly on stdin EOF: it is the primary graceful-shutdown signal and the only portable one',
            [ready, note('stdin closed; no signal sent', { waitedMs: end.waitedMs })],
          ),
        ];
    }
  },
});
