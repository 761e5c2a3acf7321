import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { activeDefects, type DefectName } from './defects/index.js';
import type { AnswerLatency } from './latency.js';
import type { InitializeRevision } from './revisions.js';
import { runStdioServer } from './stdio.js';
import { initializeRequest, legacyRpc, meta, rpc } from './test-support.js';

/** Runs the stdio server on in-memory streams; `revision` serves that initialize revision (--protocol-version). */
function startStdio(defects: DefectName[] = [], latency: AnswerLatency = {}, revision?: InitializeRevision) {
  const input = new PassThrough();
  const output = new PassThrough();
  let buffered = '';
  output.on('data', (chunk: Buffer) => (buffered += chunk.toString('utf8')));
  let exitCode: number | undefined;
  const exited = new Promise<number>((resolve) => {
    runStdioServer({
      input,
      output,
      defects: activeDefects(defects),
      ...(revision ? { revision } : {}),
      log: () => {},
      exit: (code) => resolve((exitCode = code)),
      ...latency,
    });
  });
  const lines = () => buffered.split('\n').filter((line) => line !== '');
  return {
    send: (message: unknown) => input.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`),
    lines,
    exitCode: () => exitCode,
    async waitForLines(count: number): Promise<string[]> {
      for (let i = 0; i < 100 && lines().length < count; i += 1) await new Promise((r) => setTimeout(r, 5));
      return lines();
    },
    end: () => input.end(),
    exited,
  };
}

describe('stdio transport', () => {
  it('latin1-response writes the first server/discover answer in ISO-8859-1 (é as 0xE9), later ones in UTF-8', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const exited = new Promise<number>((resolve) => {
      runStdioServer({ input, output, defects: activeDefects(['latin1-response']), log: () => {}, exit: resolve });
    });
    for (const id of [1, 2]) input.write(`${JSON.stringify(rpc(id, 'server/discover'))}\n`);
    input.end();
    await exited;
    const lines = Buffer.concat(chunks).toString('latin1').split('\n').filter(Boolean);
    expect(lines.map((line) => JSON.parse(line).result.instructions.endsWith('Served from a caf\u00e9.'))).toEqual([
      true,
      false,
    ]);
    const [first, second] = Buffer.concat(chunks).toString('binary').split('\n');
    expect(Buffer.from(first!, 'binary').includes(Buffer.from([0xe9]))).toBe(true);
    expect(Buffer.from(second!, 'binary').toString('utf8')).toBe(
      Buffer.from(second!, 'binary')
        .toString('utf8')
        .replace(/\uFFFD/g, ''),
    );
  });

  it('--tool-latency-ms answers tools/call late, other requests meanwhile, and an EOF waits for the late answers', async () => {
    const server = startStdio([], { toolLatencyMs: 40 });
    server.send(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'a' } }));
    server.send(rpc(2, 'tools/list'));
    server.send(rpc(3, 'tools/call', { name: 'echo', arguments: { text: 'b' } }));
    server.end();
    expect(await server.exited).toBe(0);
    const ids = server.lines().map((line) => JSON.parse(line).id);
    expect(ids).toEqual([2, 1, 3]);
  });

  it('--error-latency-ms holds only error answers of tools/call: a JSON-RPC error or an isError result', async () => {
    const server = startStdio([], { errorLatencyMs: 40 });
    server.send(rpc(1, 'tools/call', { name: 'nope', arguments: {} }));
    server.send(rpc(2, 'tools/call', { name: 'echo', arguments: {} }));
    server.send(rpc(3, 'tools/call', { name: 'echo', arguments: { text: 'fine' } }));
    server.send(rpc(4, 'tools/bogus'));
    server.end();
    expect(await server.exited).toBe(0);
    const messages = server.lines().map((line) => JSON.parse(line));
    expect(messages.map((message) => message.id)).toEqual([3, 4, 1, 2]);
    expect(messages[2].error ?? messages[2].result.isError).toBeTruthy();
    expect(messages[3].result.isError).toBe(true);
  });

  it('progress-after-cancel and log-after-cancel: a call that asks for progress or logs is held; cancelled, it drops its answer yet still speaks 300 ms later', async () => {
    const asks = meta({}, { progressToken: 't', 'io.modelcontextprotocol/logLevel': 'warning' });
    for (const [defect, method] of [
      ['progress-after-cancel', 'notifications/progress'],
      ['log-after-cancel', 'notifications/message'],
    ] as const) {
      const server = startStdio([defect]);
      server.send(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'a' }, _meta: asks }));
      server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
      server.send(rpc(2, 'server/discover'));
      server.end();
      const cancelled = performance.now();
      expect(await server.exited).toBe(0);
      expect(performance.now() - cancelled).toBeGreaterThanOrEqual(250);
      expect(
        server
          .lines()
          .map((line) => JSON.parse(line))
          .map((m) => m.id ?? m.method),
        defect,
      ).toEqual([2, method]);
    }
  });

  it('answers each request on its own line, in order, and exits 0 on EOF', async () => {
    const server = startStdio();
    server.send(rpc(1, 'server/discover'));
    server.send('');
    server.send(rpc(2, 'tools/list'));
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
    server.send({ jsonrpc: '2.0', id: 'x', result: {} });
    server.send(rpc(3, 'tools/call', { name: 'echo', arguments: { text: 'multi\nline' } }));
    server.end();
    expect(await server.exited).toBe(0);
    const messages = server.lines().map((line) => JSON.parse(line));
    expect(messages.map((message) => message.id)).toEqual([1, 2, 3]);
    expect(messages[2].result.content[0].text).toBe('multi\nline');
  });

  it('ignore-stdin-eof keeps serving until EOF and then never reports an exit', async () => {
    const server = startStdio(['ignore-stdin-eof']);
    server.send(rpc(1, 'server/discover'));
    expect(JSON.parse((await server.waitForLines(1))[0]!).id).toBe(1);
    server.end();
    const outcome = await Promise.race([
      server.exited.then(() => 'exited'),
      new Promise((r) => setTimeout(() => r('still up'), 200)),
    ]);
    expect(outcome).toBe('still up');
    expect(server.exitCode()).toBeUndefined();
  });

  it('stdout-noise writes a plain text line before anything else', async () => {
    const server = startStdio(['stdout-noise']);
    server.send(rpc(1, 'server/discover'));
    const lines = await server.waitForLines(2);
    expect(lines[0]).toBe('reference server ready');
    expect(JSON.parse(lines[1]!).id).toBe(1);
    server.end();
    await server.exited;
  });

  it('server-request writes a roots/list request line before the first tools/list response', async () => {
    const server = startStdio(['server-request']);
    server.send(rpc(1, 'tools/list'));
    server.send(rpc(2, 'tools/list'));
    const lines = await server.waitForLines(3);
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' },
      { id: 1, result: {} },
      { id: 2, result: {} },
    ]);
    server.end();
    await server.exited;
  });

  it('legacy-sampling-unnegotiated asks for sampling before the first tools/list, serves other requests meanwhile, and answers the list once the client has answered', async () => {
    const server = startStdio(['legacy-sampling-unnegotiated'], {}, '2025-11-25');
    server.send(
      legacyRpc(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
    );
    server.send(legacyRpc(2, 'tools/list'));
    server.send(legacyRpc(3, 'ping'));
    const asked = await server.waitForLines(3);
    expect(asked.map((line) => JSON.parse(line))).toMatchObject([
      { id: 1 },
      { id: 'srv-sampling-1', method: 'sampling/createMessage' },
      { id: 3, result: {} },
    ]);
    server.send({ jsonrpc: '2.0', id: 'srv-sampling-1', error: { code: -32601, message: 'Method not found' } });
    const lines = await server.waitForLines(4);
    expect(JSON.parse(lines[3]!)).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    server.end();
    await server.exited;
  });

  it('2025-03-26 answers a batch line with one line holding the array of its responses, and a batch of notifications with nothing', async () => {
    const server = startStdio([], {}, '2025-03-26');
    server.send(initializeRequest(1, '2025-03-26'));
    server.send([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    server.send([legacyRpc(2, 'ping'), legacyRpc(3, 'tools/list')]);
    const lines = await server.waitForLines(2);
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { id: 1, result: { protocolVersion: '2025-03-26' } },
      [
        { id: 2, result: {} },
        { id: 3, result: {} },
      ],
    ]);
    server.end();
    await server.exited;
  });

  it('exit-after-discover answers server/discover and then exits with code 1', async () => {
    const server = startStdio(['exit-after-discover']);
    server.send(rpc(1, 'server/discover'));
    server.send(rpc(2, 'tools/list'));
    expect(await server.exited).toBe(1);
    expect(server.lines().map((line) => JSON.parse(line).id)).toEqual([1]);
  });

  it('garbage-on-list answers tools/list with a non-JSON line', async () => {
    const server = startStdio(['garbage-on-list']);
    server.send(rpc(1, 'tools/list'));
    expect(await server.waitForLines(1)).toEqual(['this is not json']);
    server.end();
    await server.exited;
  });

  it('hang-on-list never answers tools/list but keeps serving', async () => {
    const server = startStdio(['hang-on-list']);
    server.send(rpc(1, 'tools/list'));
    server.send(rpc(2, 'server/discover'));
    const lines = await server.waitForLines(1);
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([2]);
    expect(server.exitCode()).toBeUndefined();
    server.end();
    expect(await server.exited).toBe(0);
  });
});

describe('non-destructive-deletes', () => {
  it('writes the notes file under $TMPDIR as the server starts, unless it is there already; the clean server writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-effects-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const clean = startStdio();
      clean.end();
      await clean.exited;
      expect(readdirSync(dir)).toEqual([]);
      const first = startStdio(['non-destructive-deletes']);
      expect(readFileSync(join(dir, 'mtc-reference-notes.json'), 'utf8')).toBe('[]\n');
      writeFileSync(join(dir, 'mtc-reference-notes.json'), '[{"id":"note-1"}]\n');
      const second = startStdio(['non-destructive-deletes']);
      expect(readFileSync(join(dir, 'mtc-reference-notes.json'), 'utf8')).toBe('[{"id":"note-1"}]\n');
      for (const server of [first, second]) server.end();
      await Promise.all([first.exited, second.exited]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
