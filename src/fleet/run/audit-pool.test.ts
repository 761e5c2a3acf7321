import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditProcesses, running, type AuditWorker } from './audit-pool.js';
import { AUDIT_WORKER_COMMAND, AUDIT_WORKER_REUSE_FLAG } from './audit-worker-protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'mtc-worker-'));
/**
 * A stand-in for our CLI as an audit process: says it is up, then for each line of arguments tells on stderr what it
 * was given and reports the audit's end on fd 3 (exit code: the audit's number); arguments holding "last" make it end.
 */
const SERVANT = join(dir, 'servant.mjs');
writeFileSync(
  SERVANT,
  `import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
process.stderr.write('up ' + process.argv.slice(2).join(' ') + '\\n');
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  n += 1;
  const args = JSON.parse(line);
  process.stderr.write('audit ' + n + ' ' + args.join(' ') + '\\n');
  const reusable = !args.includes('last');
  writeSync(3, JSON.stringify({ exitCode: n, reusable }) + '\\n');
  if (!reusable) process.exit(n);
}
`,
);
/** A stand-in that dies while it loads. */
const DIES = join(dir, 'dies.mjs');
writeFileSync(DIES, 'process.exit(7);');

const send = (worker: AuditWorker, ...args: string[]) => worker.child.stdin!.write(`${JSON.stringify(args)}\n`);
const closed = (worker: AuditWorker) =>
  new Promise<number | null>((done) =>
    worker.child.exitCode !== null ? done(worker.child.exitCode) : worker.child.once('close', done),
  );

describe('audit processes', () => {
  it("runs a lane's audits in one process while each ends normally, each with its own stderr, and ends it on close", async () => {
    const processes = new AuditProcesses(SERVANT);
    const worker = await processes.take();
    expect(running.has(worker.child)).toBe(true);
    send(worker, 'run', 'a');
    expect(await worker.nextResult()).toEqual({ exitCode: 1, reusable: true });
    expect(worker.takeStderr()).toBe(`up ${AUDIT_WORKER_COMMAND} ${AUDIT_WORKER_REUSE_FLAG}\naudit 1 run a\n`);
    await processes.release(worker, true);
    const again = await processes.take();
    expect(again).toBe(worker);
    send(again, 'run', 'b');
    expect(await again.nextResult()).toEqual({ exitCode: 2, reusable: true });
    expect(again.takeStderr()).toBe('audit 2 run b\n');
    await processes.release(again, true);
    await processes.close();
    expect(worker.child.exitCode).toBe(0);
    expect(existsSync(worker.dir)).toBe(false);
    expect(running.has(worker.child)).toBe(false);
    // Closing again, with nothing idle, is a no-op; a process given back after close is ended.
    await processes.close();
    const late = await processes.take();
    await processes.release(late, true);
    expect(late.child.exitCode).toBe(0);
  });

  it('ends a process given back as not reusable, and starts a new one for the next audit', async () => {
    const processes = new AuditProcesses(SERVANT);
    const worker = await processes.take();
    send(worker, 'run', 'last');
    expect(await worker.nextResult()).toEqual({ exitCode: 1, reusable: false });
    await processes.release(worker, false);
    expect(await closed(worker)).toBe(1);
    expect(existsSync(worker.dir)).toBe(false);
    const next = await processes.take();
    expect(next.child.pid).not.toBe(worker.child.pid);
    await processes.release(next, false);
  });

  it('replaces an idle process that died, and reads no result from a process that ended first', async () => {
    const processes = new AuditProcesses(SERVANT);
    const worker = await processes.take();
    await processes.release(worker, true);
    worker.child.kill('SIGKILL');
    await closed(worker);
    const next = await processes.take();
    expect(next.child.pid).not.toBe(worker.child.pid);
    expect(existsSync(worker.dir)).toBe(false);
    await processes.release(next, false);

    const dying = await new AuditProcesses(DIES).take();
    expect(await dying.nextResult()).toBeUndefined();
    expect(await closed(dying)).toBe(7);
    await new AuditProcesses(DIES).release(dying, false);
    expect(existsSync(dying.dir)).toBe(false);
  });
});
