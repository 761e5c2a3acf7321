import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FleetLockFile } from '../src/fleet/lock.js';
import type { FleetReport } from '../src/model/fleet.js';
import { BUILT, REFERENCE, ROOT, runCli } from './helpers/cli.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'data/report.schema.json'), 'utf8')) as object);

const SDK_V1 = join(ROOT, 'test/fixtures/sdk-v1-server.mjs');
type Servers = Record<string, { command: string; args: string[] }>;

describe.skipIf(!BUILT)('fleet --lock-write and --lock: a changed tool anywhere in the fleet fails it', () => {
  let dir: string;
  const write = (name: string, servers: Servers) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify({ mcpServers: servers }));
    return file;
  };
  const fleet = async (file: string, ...args: string[]) => {
    // One check that lists the tools keeps each audit short; the lock is compared with the audit's own complete walk.
    const run = await runCli(
      ['fleet', file, '--checks', 'tools.list.respond', '--jobs', '2', '--reporter', 'console,json', ...args],
      { timeoutMs: 90_000 },
    );
    const report = JSON.parse(readFileSync(join(run.outputDir, 'fleet.json'), 'utf8')) as FleetReport;
    if (!validate(report))
      throw new Error(`fleet.json does not match data/report.schema.json: ${ajv.errorsText(validate.errors)}`);
    return { ...run, report };
  };
  const reference = (...flags: string[]) => ({ command: process.execPath, args: [REFERENCE, ...flags] });
  const sdkV1 = { command: process.execPath, args: [SDK_V1] };
  let lockFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mtc-fleet-lock-'));
    lockFile = join(dir, 'fleet.lock.json');
    const run = await fleet(write('mcp.json', { reference: reference(), 'sdk-v1': sdkV1 }), '--lock-write', lockFile);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.report.lock).toEqual({ mode: 'write', file: lockFile, locked: ['reference', 'sdk-v1'], notLocked: [] });
    expect(run.stdout).toContain(`Lock: wrote ${lockFile}: the tools of 2 servers`);
  }, 120_000);

  it("writes one lock holding each server's tools by server name", () => {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as FleetLockFile;
    expect(lock.format).toBe('mcp-tools-conformance/fleet-lock');
    expect(Object.keys(lock.servers)).toEqual(['reference', 'sdk-v1']);
    expect(Object.keys(lock.servers['sdk-v1']!.tools)).toEqual(['add', 'echo']);
    expect(lock.servers.reference!.tools).toHaveProperty('search_docs');
  });

  it('the same fleet matches its lock: exit 0', { timeout: 120_000 }, async () => {
    const run = await fleet(join(dir, 'mcp.json'), '--lock', lockFile);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.report.lock).toEqual({ mode: 'compare', file: lockFile, changed: [], removed: [] });
    expect(run.report.servers.map((s) => s.report?.lock?.status)).toEqual(['match', 'match']);
  });

  it(
    'one server whose tool changed (a defect drops a description) is failing, naming the server and the tool: exit 1',
    { timeout: 120_000 },
    async () => {
      const run = await fleet(
        write('changed.json', { reference: reference('--defect', 'tool-without-description'), 'sdk-v1': sdkV1 }),
        '--lock',
        lockFile,
      );
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const [changed, same] = run.report.servers;
      expect(changed).toMatchObject({
        name: 'reference',
        outcome: 'failing',
        why: 'its tools differ from the lock: ~search_docs (description)',
      });
      expect(changed!.summary!.fail).toBe(0);
      expect(same).toMatchObject({ name: 'sdk-v1', outcome: 'conformant' });
      expect(run.report.lock).toEqual({ mode: 'compare', file: lockFile, changed: ['reference'], removed: [] });
      expect(run.stdout).toContain('reference: failing: its tools differ from the lock: ~search_docs (description)');
      expect(run.stdout).toMatch(/Lock: changed since .*fleet\.lock\.json\n {2}tools changed: reference/);
    },
  );

  it(
    'a server gone from the fleet, and one the lock does not hold, fail it too: exit 1',
    { timeout: 120_000 },
    async () => {
      const run = await fleet(write('other.json', { reference: reference(), newcomer: sdkV1 }), '--lock', lockFile);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.report.lock).toEqual({ mode: 'compare', file: lockFile, changed: ['newcomer'], removed: ['sdk-v1'] });
      expect(run.report.servers.find((s) => s.name === 'newcomer')).toMatchObject({
        outcome: 'failing',
        why: 'its tools differ from the lock: +add, +echo',
      });
      expect(run.stdout).toContain('servers gone from the fleet: sdk-v1');
    },
  );

  it(
    'a server that cannot start is left out of a lock being written, and said so: exit 3',
    { timeout: 120_000 },
    async () => {
      const partial = join(dir, 'partial.lock.json');
      const run = await fleet(
        write('broken.json', { 'sdk-v1': sdkV1, broken: { command: 'mtc-no-such-command-1f2e', args: [] } }),
        '--lock-write',
        partial,
      );
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(run.report.lock).toEqual({ mode: 'write', file: partial, locked: ['sdk-v1'], notLocked: ['broken'] });
      expect(Object.keys((JSON.parse(readFileSync(partial, 'utf8')) as FleetLockFile).servers)).toEqual(['sdk-v1']);
      expect(run.stdout).toContain('not locked (no complete tool listing): broken');
    },
  );

  it('a file that is not a fleet lock is a usage error before any server starts', { timeout: 60_000 }, async () => {
    const run = await runCli(['fleet', join(dir, 'mcp.json'), '--lock', join(dir, 'mcp.json')], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not a mcp-tools-conformance\/fleet-lock version 1 file/);
  });
});
