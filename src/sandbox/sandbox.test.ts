import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trackChild } from '../transport/children.js';
import { Sandbox, SandboxError, sandboxUnavailable, type SandboxRequest, type SpawnSpec } from './index.js';

const possible = (await sandboxUnavailable()) === undefined;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts one process as the integrator does (detached, tracked), feeds it `stdin` and waits for it. */
function run(spec: SpawnSpec, stdin: string): Promise<Ran> {
  const child = spawn(spec.file, spec.args, {
    env: spec.env,
    cwd: spec.cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  trackChild(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Every file's path and sha256 under `dir`, and every folder's. */
function tree(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) return [`${path}/`, ...tree(dir, path)];
      return [
        `${path} ${createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex')}`,
      ];
    });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Host pids of processes whose command line holds `token`. */
function processesWith(token: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const holderPid = (sandbox: Sandbox) => Number(sandbox.spawnSpec().args[1]);

describe('Sandbox', () => {
  const bases: string[] = [];
  let data = '';
  const open: Sandbox[] = [];

  async function openSandbox(request: Partial<SandboxRequest> = {}): Promise<Sandbox> {
    const base = await mkdtemp(join(tmpdir(), 'sandbox-test-'));
    bases.push(base);
    // Characters mount options would have to escape.
    data = join(base, 'da ta,x:y');
    mkdirSync(join(data, 'sub'), { recursive: true });
    writeFileSync(join(data, 'a.txt'), 'original\n');
    writeFileSync(join(data, 'old.txt'), 'old bytes\n');
    writeFileSync(join(data, 'sub', 'b.bin'), Buffer.alloc(3000, 7));
    const sandbox = await Sandbox.open({
      argv: ['sh', '-s', '--', data],
      env: process.env,
      userEnv: {},
      cwd: data,
      network: false,
      hidden: [],
      ...request,
    });
    open.push(sandbox);
    return sandbox;
  }

  afterEach(async () => {
    for (const sandbox of open.splice(0)) await sandbox.close();
    for (const base of bases.splice(0)) await rm(base, { recursive: true, force: true });
  });

  it.skipIf(!possible)(
    'overlays the folder the server is pointed at, writes stay inside, and one process sees the last',
    async () => {
      const sandbox = await openSandbox();
      expect(sandbox.overlays).toEqual([data]);
      expect(sandbox.network).toBe(false);
      const outside = tree(data);
      const first = await run(
        sandbox.spawnSpec(),
        'echo one > "$1/shared.txt" && echo changed >> "$1/a.txt" && rm -r "$1/sub" && id -u',
      );
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout.trim()).toBe(String(process.getuid!()));
      const second = await run(sandbox.spawnSpec(), 'cat "$1/shared.txt" "$1/a.txt"; ls "$1"; pwd');
      expect(second.stdout).toBe(`one\noriginal\nchanged\na.txt\nold.txt\nshared.txt\n${data}\n`);
      expect(tree(data)).toEqual(outside);
      expect(existsSync(join(data, 'shared.txt'))).toBe(false);
    },
  );

  it.skipIf(!possible)('lets processes running at the same time see each other write', async () => {
    const sandbox = await openSandbox();
    const poll = 'i=0; while [ ! -e "$1/flag" ] && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done; cat "$1/flag"';
    const waiting = run(sandbox.spawnSpec(), poll);
    const writer = await run(sandbox.spawnSpec(), 'echo from-the-other > "$1/flag"');
    expect(writer.code).toBe(0);
    expect((await waiting).stdout).toBe('from-the-other\n');
  });

  it.skipIf(!possible)(
    'reports what was created, modified and deleted, with sizes, in an overlay and in $HOME and $TMPDIR',
    async () => {
      const sandbox = await openSandbox();
      const start = await sandbox.snapshot();
      const script = [
        'cd "$1"',
        'printf 12345 > new.txt',
        'printf "original and more" > a.txt',
        'rm old.txt',
        'mkdir -p newdir/deeper',
        'ln -s a.txt link',
        'printf abc > "$HOME/.config-file"',
        'printf 1234567 > "$TMPDIR/t.txt"',
        'printf gone > "$TMPDIR/gone.txt"',
      ].join('\n');
      expect((await run(sandbox.spawnSpec(), script)).code).toBe(0);
      const middle = await sandbox.snapshot();
      expect(middle.truncated).toBe(false);
      expect(sandbox.changes(start, middle)).toEqual([
        { root: '$HOME', path: '.config-file', kind: 'created', type: 'file', size: 3 },
        { root: '$TMPDIR', path: 'gone.txt', kind: 'created', type: 'file', size: 4 },
        { root: '$TMPDIR', path: 't.txt', kind: 'created', type: 'file', size: 7 },
        { root: data, path: 'a.txt', kind: 'modified', type: 'file', size: 17, sizeBefore: 9 },
        { root: data, path: 'link', kind: 'created', type: 'symlink', size: 5 },
        { root: data, path: 'new.txt', kind: 'created', type: 'file', size: 5 },
        { root: data, path: 'newdir', kind: 'created', type: 'directory' },
        { root: data, path: 'newdir/deeper', kind: 'created', type: 'directory' },
        { root: data, path: 'old.txt', kind: 'deleted', type: 'file', size: 10 },
      ]);
      const again = [
        'cd "$1"',
        'rm -r sub newdir new.txt "$TMPDIR/gone.txt"',
        'mkdir sub && printf x > sub/fresh',
        'printf "original and more" > a.txt',
        'printf 7654321 > "$TMPDIR/t.txt"',
      ].join('\n');
      expect((await run(sandbox.spawnSpec(), again)).code).toBe(0);
      const end = await sandbox.snapshot();
      expect(sandbox.changes(middle, end)).toEqual([
        { root: '$TMPDIR', path: 'gone.txt', kind: 'deleted', type: 'file', size: 4 },
        { root: '$TMPDIR', path: 't.txt', kind: 'modified', type: 'file', size: 7, sizeBefore: 7 },
        { root: data, path: 'new.txt', kind: 'deleted', type: 'file', size: 5 },
        { root: data, path: 'newdir', kind: 'deleted', type: 'directory' },
        { root: data, path: 'sub/b.bin', kind: 'deleted', type: 'file', size: 3000 },
        { root: data, path: 'sub/fresh', kind: 'created', type: 'file', size: 1 },
      ]);
      expect(sandbox.changes(end, await sandbox.snapshot())).toEqual([]);
    },
  );

  it.skipIf(!possible)('runs a server whose cwd is a system folder in the scratch one, reported as $CWD', async () => {
    const sandbox = await openSandbox({ cwd: '/usr' });
    const start = await sandbox.snapshot();
    const ran = await run(sandbox.spawnSpec(), 'pwd; printf hi > here.txt');
    expect(ran.stdout).toBe(`${sandbox.scratch}/work\n`);
    expect(sandbox.changes(start, await sandbox.snapshot())).toEqual([
      { root: '$CWD', path: 'here.txt', kind: 'created', type: 'file', size: 2 },
    ]);
  });

  it.skipIf(!possible)(
    'has no network unless allowed: a port we listen on outside cannot be reached inside',
    async () => {
      const server = createServer((socket) => socket.end());
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      try {
        const port = (server.address() as AddressInfo).port;
        const connect =
          `"${process.execPath}" -e "require('net').connect(${port}, '127.0.0.1')` +
          `.on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { ` +
          `console.log(e.code); process.exit(1) })"`;
        const closed = await openSandbox();
        const refused = await run(closed.spawnSpec(), connect);
        expect(refused.stdout).toBe('ECONNREFUSED\n');
        const opened = await openSandbox({ network: true });
        expect(opened.network).toBe(true);
        expect((await run(opened.spawnSpec(), connect)).stdout).toBe('connected\n');
      } finally {
        server.close();
      }
    },
  );

  it.skipIf(!possible)(
    'keeps hidden folders empty inside, within an overlay or not, and leaves their writes out',
    async () => {
      const secretDir = await mkdtemp(join(tmpdir(), 'sandbox-hidden-'));
      try {
        writeFileSync(join(secretDir, 'report.json'), '{}');
        const sandbox = await openSandbox({ hidden: [secretDir] });
        mkdirSync(join(data, 'out'));
        writeFileSync(join(data, 'out', 'private.txt'), 'no');
        const inner = await Sandbox.open({
          argv: ['sh', '-s', '--', data],
          env: process.env,
          userEnv: {},
          cwd: data,
          network: false,
          hidden: [join(data, 'out'), secretDir],
        });
        open.push(inner);
        const start = await inner.snapshot();
        const ran = await run(
          inner.spawnSpec(),
          `ls -A "$1/out"; ls -A "${secretDir}"; echo x > "$1/out/new.txt"; echo done`,
        );
        expect(ran.stdout).toBe('done\n');
        expect(inner.changes(start, await inner.snapshot())).toEqual([]);
        expect(readdirSync(join(data, 'out'))).toEqual(['private.txt']);
        expect((await run(sandbox.spawnSpec(), `ls -A "${secretDir}"`)).stdout).toBe('');
      } finally {
        await rm(secretDir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!possible)("hides the session's sockets: the ssh-agent's cannot be reached inside", async () => {
    const socketDir = await mkdtemp(join(tmpdir(), 'sandbox-socket-'));
    const socket = join(socketDir, 'agent.sock');
    const agent = createServer((client) => client.end('hello\n'));
    await new Promise<void>((listening) => agent.listen(socket, listening));
    try {
      const connect =
        `"${process.execPath}" -e "require('net').connect('${socket}')` +
        `.on('data', (d) => console.log(String(d).trim())).on('error', (e) => console.log(e.code))"`;
      const sandbox = await openSandbox({ env: { ...process.env, SSH_AUTH_SOCK: socket } });
      expect((await run(sandbox.spawnSpec(), connect)).stdout).toBe('ECONNREFUSED\n');
      const unaware = await openSandbox({ env: { ...process.env, SSH_AUTH_SOCK: '' } });
      expect((await run(unaware.spawnSpec(), connect)).stdout).toBe('hello\n');
    } finally {
      agent.close();
      await rm(socketDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!possible)(
    'overlays the package caches, points the package managers at them, and leaves them out of the effects',
    async () => {
      const home = await mkdtemp(join(tmpdir(), 'sandbox-home-'));
      try {
        mkdirSync(join(home, '.npm', '_cacache'), { recursive: true });
        mkdirSync(join(home, '.cache', 'uv'), { recursive: true });
        const sandbox = await openSandbox({
          env: { ...process.env, HOME: home, npm_config_cache: '', UV_CACHE_DIR: '' },
        });
        const env = sandbox.spawnSpec().env;
        expect(env).toMatchObject({ npm_config_cache: join(home, '.npm'), UV_CACHE_DIR: join(home, '.cache', 'uv') });
        expect(env).toMatchObject({
          npm_config_offline: 'true',
          UV_OFFLINE: '1',
          PIP_NO_INDEX: '1',
          HOME: join(sandbox.scratch, 'home'),
        });
        expect(env.PIP_CACHE_DIR).toBeUndefined();
        expect(sandbox.overlays).toEqual([data]);
        const start = await sandbox.snapshot();
        const entry = '"$npm_config_cache/_cacache/entry"';
        const ran = await run(sandbox.spawnSpec(), `echo cached > ${entry} && cat ${entry}`);
        expect(ran.stdout).toBe('cached\n');
        expect(readdirSync(join(home, '.npm', '_cacache'))).toEqual([]);
        expect(sandbox.changes(start, await sandbox.snapshot())).toEqual([]);
        const inHome = await openSandbox({ env: { ...process.env, HOME: home, npm_config_cache: '' }, cwd: home });
        expect(inHome.overlays).toEqual([data, home].sort());
        const before = await inHome.snapshot();
        expect(
          (await run(inHome.spawnSpec(), 'echo x > "$npm_config_cache/entry"; echo y > "$PWD/notes.txt"')).code,
        ).toBe(0);
        expect(inHome.changes(before, await inHome.snapshot())).toEqual([
          { root: home, path: 'notes.txt', kind: 'created', type: 'file', size: 2 },
        ]);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!possible)('leaves nothing running once the process group is killed', async () => {
    const sandbox = await openSandbox();
    const token = `${process.pid}${Date.now() % 1000}`;
    const spec = sandbox.spawnSpec();
    const child = spawn(spec.file, spec.args, {
      env: spec.env,
      cwd: spec.cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    trackChild(child);
    child.stdin.end(`sleep 100${token} & setsid sleep 200${token} & echo up; wait`);
    await new Promise<void>((up) => child.stdout.once('data', () => up()));
    // Bounded waits, long enough for a loaded machine: the background processes start, and end, on their own time.
    for (let i = 0; i < 500 && processesWith(token).length < 2; i++) await new Promise((done) => setTimeout(done, 20));
    expect(processesWith(`sleep\u0000100${token}`)).toHaveLength(1);
    expect(processesWith(`sleep\u0000200${token}`)).toHaveLength(1);
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((done) => child.once('exit', done));
    for (let i = 0; i < 500 && processesWith(token).length > 0; i++) await new Promise((done) => setTimeout(done, 20));
    expect(processesWith(`100${token}`)).toEqual([]);
    expect(processesWith(`200${token}`)).toEqual([]);
  });

  it.skipIf(!possible)('close() ends the holder and removes the scratch folder, and can be called again', async () => {
    const sandbox = await openSandbox();
    const pid = holderPid(sandbox);
    expect(alive(pid)).toBe(true);
    expect(statSync(sandbox.scratch).mode & 0o777).toBe(0o700);
    expect((await run(sandbox.spawnSpec(), 'echo x > "$1/a.txt"; rm "$1/old.txt"; echo y > "$HOME/h"')).code).toBe(0);
    await sandbox.close();
    await sandbox.close();
    expect(existsSync(sandbox.scratch)).toBe(false);
    expect(alive(pid)).toBe(false);
    expect(() => sandbox.spawnSpec()).toThrow(SandboxError);
  });

  it.skipIf(!possible)('refuses to overlay every folder its scratch could go in, naming them', async () => {
    const home = homedir();
    const argv = ['sh', tmpdir(), '/var/tmp', home];
    const attempt = Sandbox.open({ argv, env: process.env, userEnv: {}, cwd: '/', network: false, hidden: [] });
    await expect(attempt).rejects.toThrow(SandboxError);
    await expect(attempt).rejects.toThrow(/cannot overlay .*\/var\/tmp/);
  });
});
