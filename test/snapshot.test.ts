import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, referenceCommand, runCli } from './helpers/cli.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Json = Record<string, any>;

async function snapshotOf(...serverArgs: string[]): Promise<{ file: string; data: Json }> {
  const run = await runCli(['snapshot', '--stdio', referenceCommand(...serverArgs)], { timeoutMs: 20_000 });
  expect(run.code, run.stderr).toBe(0);
  const data = JSON.parse(run.stdout) as Json;
  const file = join(run.outputDir, 'tools.json');
  writeFileSync(file, run.stdout);
  return { file, data };
}

describe.skipIf(!BUILT)('offline mode: snapshot, then --from-snapshot', () => {
  it('snapshot prints the complete listing with the wire version, and nothing else on stdout', async () => {
    const { data } = await snapshotOf();
    expect(data.format).toBe('mcp-tools-conformance/snapshot');
    expect(data.wire.protocolVersion).toBe('2026-07-28');
    expect(data.exchanges.map((e: Json) => e.request.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/list',
      'tools/list',
    ]);
    expect(data.exchanges.slice(1).flatMap((e: Json) => e.response.result.tools).length).toBe(11);
  });

  it('--from-snapshot runs every static check with no server, and skips what needs one', async () => {
    const { file } = await snapshotOf();
    const run = await runCli(['--from-snapshot', file]);
    expect(explain(run.report)).toBe('(no fail/warn/error)');
    expect(run.code).toBe(0);
    expect(run.report!.target).toEqual({ transport: 'snapshot', file });
    expect(run.report!.wire.reason).toMatch(/^from snapshot/);
    expect(run.report!.checks.find((c) => c.id === 'stdio.server.stdout-clean')!.status).toBe('skip');
    expect(run.report!.checks.find((c) => c.id === 'tools.name.charset')!.status).toBe('pass');
  });

  it('a defect captured in a snapshot is found offline', async () => {
    const { file } = await snapshotOf('--defect', 'xmcp-number');
    const run = await runCli(['--from-snapshot', file]);
    expect(run.code).toBe(1);
    const failed = run.report!.checks.filter((c) => c.status === 'fail');
    expect(failed.map((c) => [c.id, c.tool])).toEqual([['xmcp.target.primitive', 'route_query']]);
  });

  it("a snapshot of an older revision is judged by that revision's schema", async () => {
    const file = join(tmpdir(), `snapshot-2024-11-05-${process.pid}.json`);
    const tools = [{ name: 'search', description: 7, title: 42, inputSchema: { type: 'object' } }];
    const initialize = {
      protocolVersion: '2024-11-05',
      capabilities: { tools: {} },
      serverInfo: { name: 'old', version: '1' },
    };
    writeFileSync(
      file,
      JSON.stringify({
        format: 'mcp-tools-conformance/snapshot',
        version: 1,
        capturedAt: '2026-01-01T00:00:00.000Z',
        capturedBy: { name: 'hand', version: '0' },
        target: { transport: 'stdio', command: 'old-server' },
        wire: { protocolVersion: '2024-11-05', reason: 'initialize answered 2024-11-05' },
        exchanges: [
          {
            request: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} },
            response: { jsonrpc: '2.0', id: 0, result: initialize },
          },
          {
            request: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
            response: { jsonrpc: '2.0', id: 1, result: { tools } },
          },
        ],
      }),
    );
    const run = await runCli(['--from-snapshot', file]);
    expect(run.report!.wire.protocolVersion).toBe('2024-11-05');
    // title is no member of a 2024-11-05 Tool, so only the description breaks a rule of that schema.json.
    const shape = run.report!.checks.filter((c) => c.id === 'tools.tool.shape');
    expect(shape.map((c) => [c.status, c.specRef])).toEqual([
      ['fail', 'schema.json#/definitions/Tool/properties/description/type'],
    ]);
  });

  it('--snapshot-out saves the listing an audit walked, the same as snapshot prints; none is written when no check listed the tools', async () => {
    const { data } = await snapshotOf();
    const dir = mkdtempSync(join(tmpdir(), 'mtc-snapshot-out-'));
    const [walked, unlisted] = await Promise.all([
      runCli(
        ['--stdio', referenceCommand(), '--checks', 'tools.list.respond', '--snapshot-out', join(dir, 'walked.json')],
        { timeoutMs: 20_000 },
      ),
      runCli(['--stdio', referenceCommand(), '--checks', 'discover.*', '--snapshot-out', join(dir, 'none.json')], {
        timeoutMs: 20_000,
      }),
    ]);
    expect(walked.code, walked.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(dir, 'walked.json'), 'utf8')) as Json;
    const toolsOf = (snapshot: Json) =>
      snapshot.exchanges
        .filter((e: Json) => e.request.method === 'tools/list')
        .flatMap((e: Json) => e.response.result.tools);
    expect(toolsOf(saved)).toEqual(toolsOf(data));
    expect(saved.wire.protocolVersion).toBe(data.wire.protocolVersion);
    const replayed = await runCli(['--from-snapshot', join(dir, 'walked.json')], { timeoutMs: 20_000 });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(unlisted.code).toBe(0);
    expect(existsSync(join(dir, 'none.json'))).toBe(false);
    expect(unlisted.stderr).toContain('no check listed the tools, so');
  });

  it('a file that is not a snapshot is a usage error', async () => {
    const file = join(tmpdir(), `not-a-snapshot-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ tools: [] }));
    const run = await runCli(['--from-snapshot', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not a snapshot/);
    const missing = await runCli(['--from-snapshot', join(tmpdir(), 'no-such-snapshot.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/ENOENT/);
  });

  it('--from-snapshot cannot be combined with a live target', async () => {
    expect((await runCli(['--from-snapshot', 'x.json', '--stdio', 'node x.js'])).code).toBe(2);
  });
});
