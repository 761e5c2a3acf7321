import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test/fixtures/initialize-per-session-server.mjs');
/** Checks whose sentence exists only in 2026-07-28 (server/tools#capabilities). */
const STATELESS_LISTING_CHECKS = [
  'tools.list.deterministic-order',
  'tools.list.no-connection-variance',
  'tools.list.no-connection-variance.after-calls',
];

/** Sends the requests one after the other to a fresh fixture process; returns each answer's result or error. */
async function session(requests: { method: string; params?: object }[]): Promise<unknown[]> {
  const child = spawn(process.execPath, [FIXTURE]);
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const out: unknown[] = [];
  try {
    for (const [i, request] of requests.entries()) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i + 1, ...request })}\n`);
      for (;;) {
        const message = JSON.parse((await answers.next()).value as string) as {
          id?: number;
          result?: unknown;
          error?: unknown;
        };
        if (message.id === i + 1) {
          out.push(message.result ?? message.error);
          break;
        }
      }
    }
  } finally {
    child.kill();
  }
  return out;
}

const names = (result: unknown) => (result as { tools: { name: string }[] }).tools.map((t) => t.name);

describe('a legacy server whose tool set belongs to the session', () => {
  it('is legacy, and gains a tool for its session after the first tools/call (a fresh process does not have it)', async () => {
    const [discover, init, before, , after] = await session([
      { method: 'server/discover' },
      {
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { method: 'tools/list' },
      { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      { method: 'tools/list' },
    ]);
    expect(discover).toMatchObject({ code: -32601 });
    expect(init).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(names(before)).toEqual(['echo']);
    expect(names(after)).toEqual(['echo', 'recent_calls']);
    const [fresh] = await session([{ method: 'tools/list' }]);
    expect(names(fresh)).toEqual(['echo']);
  });

  it.skipIf(!BUILT)(
    'is audited on 2025-11-25 without a finding: the 2026-07-28 listing checks skip for the wire, and its ' +
      'http: icon is accepted',
    async () => {
      const run = await runCli(['--stdio', `${process.execPath} ${FIXTURE}`]);
      const report = run.report!;
      expect(report.wire.protocolVersion).toBe('2025-11-25');
      for (const id of STATELESS_LISTING_CHECKS) {
        expect(
          report.checks.filter((c) => c.id === id).map((c) => [c.status, c.message]),
          id,
        ).toEqual([
          ['skip', 'the requirement does not exist on the 2025-11-25 wire: no sentence of its pages backs this check'],
        ]);
      }
      expect(report.checks.find((c) => c.id === 'icons.safe-scheme')?.status).toBe('pass');
      expect(
        report.checks.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.status} ${c.id}`),
        explain(report),
      ).toEqual([]);
      expect(run.code).toBe(0);
    },
  );
});
