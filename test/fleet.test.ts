import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../src/model/fleet.js';
import { BUILT, REFERENCE, ROOT, runCli, startReferenceHttp, type HttpServer } from './helpers/cli.js';

const require = createRequire(import.meta.url);
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'data/report.schema.json'), 'utf8')) as object);

/**
 * The bin of an npm server the tests install (server-memory starts fast and warns on two justified SHOULD-level
 * points).
 */
function npmBin(pkg: string): string {
  const manifest = require(`${pkg}/package.json`) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return join(dirname(require.resolve(`${pkg}/package.json`)), bin);
}

// Values that must appear nowhere: not in fleet.json, a server's report.json, nor on the console.
const ENV_SECRET = 'sk-live-FLEET-0a1b2c3d4e5f';
const HEADER_SECRET = 'hdr-FLEET-9z8y7x6w';
// A few checks bound the run: a listing, a MUST on the schemas (the defect breaks it), a descriptive one that npm
// servers on SDK v1 warn on, and tool calls (the depth's numerator).
const CHECKS = 'tools.list.respond,tools.schema.input-valid-object,tools.err.unknown-tool,tools.err.execution-errors';

async function fleet(file: string, ...args: string[]) {
  const run = await runCli(['fleet', file, '--reporter', 'console,json', ...args], {
    timeoutMs: 150_000,
    env: { MTC_FLEET_UNSET_KEY: '' },
  });
  const text = readFileSync(join(run.outputDir, 'fleet.json'), 'utf8');
  const report = JSON.parse(text) as FleetReport;
  if (!validate(report))
    throw new Error(`fleet.json does not match data/report.schema.json: ${ajv.errorsText(validate.errors)}`);
  return { ...run, report, text };
}

describe.skipIf(!BUILT)('fleet: every server of a host file, one report', () => {
  let http: HttpServer;
  let dir: string;
  beforeAll(async () => {
    http = await startReferenceHttp();
    dir = mkdtempSync(join(tmpdir(), 'mtc-fleet-'));
  });
  afterAll(() => http?.stop());

  it(
    'one file, one outcome per server, each correct, with its why, depth and own report; no secret anywhere',
    { timeout: 180_000 },
    async () => {
      const file = join(dir, 'claude_desktop_config.json');
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: {
            // Its script named relative to its cwd: the entry's cwd is the server's.
            'ref-stdio': {
              command: process.execPath,
              args: [basename(REFERENCE)],
              cwd: dirname(REFERENCE),
              env: { API_TOKEN: ENV_SECRET },
            },
            'ref-http': { type: 'http', url: http.url, headers: { Authorization: `Bearer ${HEADER_SECRET}` } },
            'ref-defect': { command: process.execPath, args: [REFERENCE, '--defect', 'input-schema-not-object'] },
            'needs-key': {
              command: process.execPath,
              args: [REFERENCE],
              env: { API_KEY: '${env:MTC_FLEET_UNSET_KEY}' },
            },
            'needs-input': { command: process.execPath, args: [REFERENCE], env: { API_KEY: '${input:mtc-fleet-key}' } },
            'not-installed': { command: 'mtc-no-such-mcp-server', args: ['--stdio'] },
            memory: {
              command: process.execPath,
              args: [npmBin('@modelcontextprotocol/server-memory')],
              env: { MEMORY_FILE_PATH: join(dir, 'memory.json') },
            },
            refused: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'X-Api-Key': HEADER_SECRET } },
            // Says its secret on stderr and exits: the audit's report and the fleet's must not repeat it.
            leaky: {
              command: process.execPath,
              args: ['-e', 'console.error("my token is " + process.env.LEAKY_TOKEN); process.exit(1)'],
              env: { LEAKY_TOKEN: ENV_SECRET },
            },
            off: { command: process.execPath, args: [REFERENCE], disabled: true },
            // No annotations in 2024-11-05: no tool is read-only, so none is called and a tool-call check skips.
            'ref-2024': { command: process.execPath, args: [REFERENCE, '--protocol-version', '2024-11-05'] },
          },
        }),
      );
      const run = await fleet(file, '--checks', CHECKS, '--jobs', '3');
      const byName = Object.fromEntries(run.report.servers.map((s) => [s.name, s]));
      expect(run.report.servers.map((s) => [s.name, s.outcome])).toEqual([
        ['ref-stdio', 'conformant'],
        ['ref-http', 'conformant'],
        ['ref-defect', 'failing'],
        ['needs-key', 'needs-secret'],
        ['needs-input', 'needs-secret'],
        ['not-installed', 'could-not-start'],
        ['memory', 'warnings'],
        ['refused', 'unreachable'],
        ['leaky', 'could-not-start'],
        ['off', 'skipped'],
        ['ref-2024', 'conformant'],
      ]);
      expect(run.report.summary).toEqual({
        conformant: 3,
        warnings: 1,
        failing: 1,
        'could-not-start': 2,
        unreachable: 1,
        'needs-secret': 2,
        'timed-out': 0,
        'invalid-entry': 0,
        skipped: 1,
      });
      expect(run.code).toBe(1);
      expect(run.report.exitCode).toBe(1);

      expect(byName['ref-stdio']).toMatchObject({
        protocolVersion: '2026-07-28',
        why: 'no fail and no warning on 2026-07-28',
        reportFile: 'servers/ref-stdio/report.json',
      });
      expect(byName['ref-http']!.report!.target.transport).toBe('http');
      expect(byName['ref-defect']!.why).toBe('1 fail: tools.schema.input-valid-object');
      expect(byName['needs-key']!.why).toMatch(/MTC_FLEET_UNSET_KEY/);
      expect(byName['needs-key']!.report).toBeUndefined();
      // An input is named by the variable that fills it here.
      expect(byName['needs-input']!.why).toBe(
        'needs MCP_INPUT_MTC_FLEET_KEY (the input mtc-fleet-key): not set in the environment, so the server ' +
          'was not started',
      );
      expect(byName['not-installed']!.why).toMatch(/cannot start 'mtc-no-such-mcp-server': ENOENT .*on PATH/);
      expect(byName.memory).toMatchObject({
        protocolVersion: '2025-11-25',
        why: 'no fail; 1 warning: tools.err.unknown-tool',
      });
      expect(byName.refused!.why).toMatch(/ECONNREFUSED/);
      expect(byName.leaky!.stderr!.join('\n')).toContain('my token is [redacted]');
      expect(byName.off!.why).toBe('disabled in its file');
      // Depth: the reference server's read-only tools are called out of every tool it lists; on 2024-11-05 none is.
      const snapshot = JSON.parse(
        (await runCli(['snapshot', '--stdio', `${process.execPath} ${REFERENCE}`])).stdout,
      ) as {
        exchanges: { request: { method: string }; response?: { result?: { tools?: { name: string }[] } } }[];
      };
      const listed = new Set(
        snapshot.exchanges
          .filter((e) => e.request.method === 'tools/list')
          .flatMap((e) => e.response?.result?.tools ?? [])
          .map((t) => t.name),
      );
      const depth = byName['ref-stdio']!.depth!;
      expect(depth.toolsListed).toBe(listed.size);
      expect(depth.toolsCalled).toBeGreaterThan(0);
      expect(depth.toolsCalled).toBeLessThan(depth.toolsListed);
      expect(depth.skippedForNoCallableTool).toBe(0);
      expect(byName['ref-2024']!.depth).toMatchObject({
        toolsCalled: 0,
        skippedForNoCallableTool: 1,
        deeperWith: '--sandbox',
      });
      expect(run.stdout).toMatch(
        /Depth\n {2}ref-2024: 0 of \d+ tools called, 1 check\(s\) skipped for want of a tool it may call/,
      );

      // Each audited server's own report.json, next to fleet.json; the console's table, findings and why.
      const servers = readdirSync(join(run.outputDir, 'servers')).sort();
      expect(servers).toEqual([
        'leaky',
        'memory',
        'not-installed',
        'ref-2024',
        'ref-defect',
        'ref-http',
        'ref-stdio',
        'refused',
      ]);
      expect(run.stdout).toMatch(/^ref-defect\s+stdio\s+2026-07-28\s+failing\s+1\s+0\s+\d+\/\d+/m);
      expect(run.stdout).toMatch(/Findings\n(.*\n)* {2}ref-defect\n {4}FAIL tools\.schema\.input-valid-object/);
      expect(run.stdout).toMatch(/needs-key: needs secret: needs MTC_FLEET_UNSET_KEY/);

      // What only a fleet sees: the reference server's tools served by every entry that runs it, read from each
      // server's saved listing (servers/<name>/tools.json, a snapshot --from-snapshot replays).
      const sameName = run.report.findings.find(
        (f) => f.id === 'fleet.tools.same-name' && f.servers.includes('ref-stdio') && f.servers.includes('ref-http'),
      );
      expect(sameName?.tools).toContain('get_weather');
      expect(run.report.findings.every((f) => !f.servers.includes('memory'))).toBe(true);
      expect(run.stdout).toMatch(/Fleet findings\n {2}WARN fleet\.tools\.same-name: /);

      const files = servers.flatMap((s) =>
        readdirSync(join(run.outputDir, 'servers', s)).map((f) => join(run.outputDir, 'servers', s, f)),
      );
      expect(servers.filter((s) => files.includes(join(run.outputDir, 'servers', s, 'tools.json')))).toEqual([
        'memory',
        'ref-2024',
        'ref-defect',
        'ref-http',
        'ref-stdio',
      ]);
      const everything = [run.text, run.stdout, run.stderr, ...files.map((f) => readFileSync(f, 'utf8'))].join('\n');
      expect(everything).not.toContain(ENV_SECRET);
      expect(everything).not.toContain(HEADER_SECRET);
    },
  );

  it(
    'an audit run in a process that ran others before it reports what one in a fresh process does',
    { timeout: 60_000 },
    async () => {
      const file = join(dir, 'one-lane.json');
      const server = { command: process.execPath, args: [REFERENCE] };
      // With one lane, the three run in turn in one process: the third is the first again, after a defect and another
      // wire.
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: {
            first: server,
            other: {
              command: process.execPath,
              args: [REFERENCE, '--protocol-version', '2025-11-25', '--defect', 'input-schema-not-object'],
            },
            again: server,
          },
        }),
      );
      const run = await fleet(file, '--jobs', '1');
      expect(run.report.servers.map((s) => s.outcome)).toEqual(['conformant', 'failing', 'conformant']);
      const [first, , again] = run.report.servers.map((s) => s.report!);
      const said = (report: typeof first) =>
        report!.checks.map((c) => `${c.id} ${c.status} ${String(c.message ?? '').replace(/\d+(\.\d+)?/g, '#')}`);
      expect(said(again)).toEqual(said(first));
      const seqs = (report: typeof first) =>
        report!.checks
          .flatMap((c) => c.evidence ?? [])
          .flatMap((e) => ('seq' in e && typeof e.seq === 'number' ? [e.seq] : []));
      expect(Math.min(...seqs(again))).toBe(Math.min(...seqs(first)));
    },
  );

  it(
    'a server that outlives its --max-duration is timed out; --fail-on-unavailable makes that exit 3',
    { timeout: 60_000 },
    async () => {
      const file = join(dir, 'slow.json');
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: { silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } },
        }),
      );
      const [plain, strict] = await Promise.all([
        fleet(file, '--max-duration', '1500'),
        fleet(file, '--max-duration', '1500', '--fail-on-unavailable'),
      ]);
      expect(plain.report.servers.map((s) => [s.outcome, s.why])).toEqual([
        ['timed-out', expect.stringMatching(/^its --max-duration budget of 1500 ms ran out/)],
      ]);
      expect(plain.code).toBe(0);
      expect(strict.report.servers[0]!.outcome).toBe('timed-out');
      expect(strict.code).toBe(3);
    },
  );

  it(
    'an entry that cannot be audited as written is an invalid entry saying why, never skipped: exit 3 with ' +
      '--fail-on-unavailable',
    { timeout: 30_000 },
    async () => {
      const file = join(ROOT, 'test/fixtures/fleet/cases/only-invalid.json');
      const [plain, strict] = await Promise.all([fleet(file), fleet(file, '--fail-on-unavailable')]);
      for (const run of [plain, strict]) {
        expect(run.report.servers.map((s) => [s.name, s.outcome, s.why])).toEqual([
          ['nothing-to-run', 'invalid-entry', 'neither "command" nor "url"'],
          ['args-not-a-list', 'invalid-entry', '"args" must be a list of strings'],
          ['not-http', 'invalid-entry', '"url" is not an http(s) URL: ftp://example.com/mcp'],
        ]);
        expect(run.report.summary).toMatchObject({ 'invalid-entry': 3, skipped: 0 });
        expect(run.stdout).toMatch(/^nothing-to-run\s+stdio\s+-\s+invalid entry\s/m);
        expect(run.stdout).toContain('Why\n  nothing-to-run: invalid entry: neither "command" nor "url"\n');
        expect(run.stdout).not.toMatch(/skipped/);
      }
      expect(plain.stdout).toContain('Fleet: 3 servers: 3 invalid entry in ');
      expect([plain.code, plain.report.exitCode]).toEqual([0, 0]);
      expect([strict.code, strict.report.exitCode]).toEqual([3, 3]);
      expect(strict.stdout).toMatch(/\(exit 3\)\n/);
    },
  );

  it(
    '--discover lists the host files it finds and audits them only with --audit (named files always)',
    { timeout: 30_000 },
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'mtc-home-'));
      mkdirSync(join(home, '.cursor'));
      writeFileSync(
        join(home, '.cursor', 'mcp.json'),
        JSON.stringify({ mcpServers: { found: { command: 'x', disabled: true } } }),
      );
      const named = join(dir, 'named.json');
      writeFileSync(named, JSON.stringify({ mcpServers: { named: { command: 'x', disabled: true } } }));
      const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
      const emptyHome = mkdtempSync(join(tmpdir(), 'mtc-home-'));
      const [listed, withNamed, audited, none] = await Promise.all([
        runCli(['fleet', '--discover'], { env }),
        runCli(['fleet', named, '--discover'], { env }),
        runCli(['fleet', named, '--discover', '--audit'], { env }),
        runCli(['fleet', '--discover'], { env: { HOME: emptyHome, XDG_CONFIG_HOME: join(emptyHome, '.config') } }),
      ]);
      expect(none.code).toBe(0);
      expect(none.stdout).toContain('No host config file found. Looked in:');
      expect(none.stdout).toContain(`${join(emptyHome, '.cursor', 'mcp.json')}  (Cursor, user)`);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(join(home, '.cursor', 'mcp.json'));
      expect(listed.stdout).toContain('fleet --discover --audit');
      expect(readdirSync(listed.outputDir)).toEqual([]);
      const servers = (run: { outputDir: string }) =>
        (JSON.parse(readFileSync(join(run.outputDir, 'fleet.json'), 'utf8')) as FleetReport).servers.map((s) => s.name);
      expect(servers(withNamed)).toEqual(['named']);
      expect(servers(audited)).toEqual(['named', 'found']);
    },
  );

  it(
    'a host file that cannot be read, or --allow-tools for a server the fleet lacks, is a usage error (exit 2) ' +
      'before any server starts',
    { timeout: 30_000 },
    async () => {
      const [missing, stray] = await Promise.all([
        runCli(['fleet', join(dir, 'missing.json')]),
        (async () => {
          const file = join(dir, 'one.json');
          writeFileSync(file, JSON.stringify({ mcpServers: { one: { command: 'mtc-never-started' } } }));
          return runCli(['fleet', file, '--allow-tools', 'github:search']);
        })(),
      ]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/missing\.json: file not found/);
      expect(stray.code).toBe(2);
      expect(stray.stderr).toMatch(/--allow-tools names no server of the fleet: github \(servers: one\)/);
      expect(readdirSync(stray.outputDir)).toEqual([]);
    },
  );
});
