import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFECTS } from './defects/index.js';
import { post, rpc, standardHeaders } from './test-support.js';

const MAIN = fileURLToPath(new URL('../../dist/reference-server/main.js', import.meta.url));
const built = existsSync(MAIN);
if (!built) console.warn(`skipping reference server process tests: ${MAIN} is missing (run \`npm run build\` first)`);

interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

const running: ChildProcessWithoutNullStreams[] = [];

function start(args: string[]): Spawned {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: 'pipe' });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const jsonLines = (text: string) => text.split('\n').filter((line) => line !== '');

afterAll(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe.skipIf(!built)(
  'reference server process (dist/reference-server/main.js, the bundle)',
  { concurrent: true },
  () => {
    it('--list-defects prints every defect and exits 0', async () => {
      const server = start(['--list-defects']);
      expect(await server.exit).toBe(0);
      const lines = jsonLines(server.stdout());
      expect(lines.map((line) => line.split('\t')[0])).toEqual(DEFECTS.map((defect) => defect.name));
      expect(lines.every((line) => line.split('\t').length === 3)).toBe(true);
    });

    it('exits 2 with a message on stderr for an unknown defect', async () => {
      const server = start(['--defect', 'no-such-defect']);
      expect(await server.exit).toBe(2);
      expect(server.stderr()).toContain('no-such-defect');
      expect(server.stdout()).toBe('');
    });

    it('serves stdio with nothing but JSON-RPC on stdout and exits on stdin EOF', async () => {
      const server = start([]);
      server.child.stdin.write(`${JSON.stringify(rpc(1, 'server/discover'))}\n`);
      server.child.stdin.write(`${JSON.stringify(rpc(2, 'tools/list'))}\n`);
      await waitFor(() => jsonLines(server.stdout()).length === 2, 'two responses');
      server.child.stdin.end();
      expect(await server.exit).toBe(0);
      const messages = jsonLines(server.stdout()).map((line) => JSON.parse(line));
      expect(messages.map((message) => message.id)).toEqual([1, 2]);
      expect(messages[1].result.tools).toHaveLength(4);
      expect(server.stderr()).toContain('stdio');
    });

    it('--big-page-mb 5 answers tools/list with one line of at least 5 MB and no cursor', async () => {
      const server = start(['--big-page-mb', '5']);
      server.child.stdin.write(`${JSON.stringify(rpc(1, 'tools/list'))}\n`);
      await waitFor(() => server.stdout().endsWith('\n'), 'the tools/list response');
      server.child.stdin.end();
      expect(await server.exit).toBe(0);
      const [line, ...rest] = jsonLines(server.stdout());
      expect(rest).toEqual([]);
      expect(line!.length).toBeGreaterThanOrEqual(5 * 1024 * 1024);
      const response = JSON.parse(line!);
      expect(response.result.nextCursor).toBeUndefined();
      expect(response.result.tools.length).toBeGreaterThan(1_000);
    });

    it('--scale-tools 250 serves the reference tools and 250 generated ones, 100 per page', async () => {
      const server = start(['--scale-tools', '250']);
      server.child.stdin.write(`${JSON.stringify(rpc(1, 'tools/list'))}\n`);
      await waitFor(() => jsonLines(server.stdout()).length === 1, 'the first page');
      server.child.stdin.end();
      expect(await server.exit).toBe(0);
      const page = JSON.parse(jsonLines(server.stdout())[0]!).result;
      expect(page.tools).toHaveLength(100);
      expect(typeof page.nextCursor).toBe('string');
    });

    it('stdout-noise writes a plain text line at start-up', async () => {
      const server = start(['--defect', 'stdout-noise']);
      await waitFor(() => server.stdout().includes('\n'), 'the noise line');
      expect(jsonLines(server.stdout())[0]).toBe('reference server ready');
      server.child.stdin.end();
      expect(await server.exit).toBe(0);
    });

    it('exit-after-discover exits with code 1 after the discover response', async () => {
      const server = start(['--defect', 'exit-after-discover']);
      server.child.stdin.write(`${JSON.stringify(rpc(1, 'server/discover'))}\n`);
      expect(await server.exit).toBe(1);
      expect(JSON.parse(jsonLines(server.stdout())[0]!).result.resultType).toBe('complete');
    });

    it('--http prints the endpoint line, serves POST /mcp and exits 0 on SIGTERM', async () => {
      const server = start(['--http', '--port', '0']);
      await waitFor(() => server.stdout().includes('\n'), 'the listening line');
      const [line, ...rest] = jsonLines(server.stdout());
      expect(rest).toEqual([]);
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line ?? '');
      expect(match).not.toBeNull();
      const body = rpc(1, 'server/discover');
      const response = await post(match![1]!, body, standardHeaders(body));
      expect(response.status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    });
  },
);
