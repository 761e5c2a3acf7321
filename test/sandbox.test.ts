import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../src/sandbox/index.js';
import type { RunReport } from '../src/model/report.js';
import { BUILT, ROOT, runCli } from './helpers/cli.js';
import { contentPrint, surroundingsPrint } from './helpers/content-print.js';

const require = createRequire(import.meta.url);
const unavailable = await sandboxUnavailable();
if (unavailable !== undefined) console.warn(`skipping the --sandbox audits: ${unavailable}`);
const SANDBOX = BUILT && unavailable === undefined;

const KNOWLEDGE_GRAPH = join(ROOT, 'test/fixtures/knowledge-graph-server.mjs');
const ANNOTATION_EFFECTS = join(ROOT, 'test/fixtures/annotation-effects-server.mjs');
const HONESTY_CHECKS = [
  'tools.annotations.read-only-honest',
  'tools.annotations.destructive-honest',
  'tools.annotations.idempotent-honest',
];

const statusOf = (report: RunReport, id: string) =>
  report.checks.filter((c) => c.id === id).map((c) => `${c.status}${c.tool ? ` ${c.tool}` : ''}`);

describe('--sandbox where it is not possible', () => {
  it.skipIf(!BUILT)('exits 2 with one line naming what is missing, and starts nothing', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'mtc-nobwrap-'));
    const run = await runCli(['--stdio', "node -e \"require('fs').writeFileSync('/tmp/never', '')\"", '--sandbox'], {
      fresh: true,
      env: { PATH: bin },
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^mcp-tools-conformance: --sandbox is not possible here: .*bubblewrap/);
    expect(run.report).toBeUndefined();
  });

  it.skipIf(!BUILT)('is a usage error with --url, and --sandbox-network needs --sandbox', async () => {
    const http = await runCli(['--url', 'http://127.0.0.1:1/mcp', '--sandbox']);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('--sandbox runs a server that the audit starts (--stdio)');
    const network = await runCli(['--reference-server', '--sandbox-network']);
    expect(network.code).toBe(2);
    expect(network.stderr).toContain('--sandbox-network goes with --sandbox');
  });
});

describe.skipIf(!SANDBOX)("--sandbox: every tool called, nothing outside changed, each call's effects reported", () => {
  it(
    'a knowledge-graph server: its memory file is byte-identical afterwards, and the report says what each ' +
      'tool changed',
    { timeout: 60_000 },
    async () => {
      const data = mkdtempSync(join(tmpdir(), 'mtc-kg-sandbox-'));
      const memory = join(data, 'memory.jsonl');
      writeFileSync(
        memory,
        `${JSON.stringify({ type: 'entity', name: 'Ada', entityType: 'person', observations: ['wrote notes'] })}\n`,
      );
      const before = contentPrint(data);
      const surroundings = surroundingsPrint();
      const run = await runCli([
        '--stdio',
        `${process.execPath} ${KNOWLEDGE_GRAPH} --memory ${memory}`,
        '--sandbox',
        '--runs',
        '10',
        '--reporter',
        'console,json',
      ]);
      const report = run.report!;
      expect(contentPrint(data)).toEqual(before);
      expect(surroundingsPrint()).toEqual(surroundings);
      expect(report.depth).toMatchObject({ toolsListed: 5, toolsCalled: 5, sandboxed: true });
      expect(report.sandbox).toMatchObject({
        kind: 'overlay',
        network: false,
        overlays: expect.arrayContaining([data]),
      });
      const created = report.effects!.create_entities!;
      expect(created.callsWithChanges).toBeGreaterThan(0);
      expect(created.changes).toContainEqual(
        expect.objectContaining({ root: data, path: 'memory.jsonl', kind: 'modified', type: 'file' }),
      );
      expect(report.effects!.read_graph).toMatchObject({ callsWithChanges: 0 });
      expect(JSON.stringify(report)).not.toContain('wrote notes');
      expect(run.stdout).toContain('What each tool changed:');
      expect(run.stdout).toMatch(/Depth: called 5 of 5 tools.* \(sandboxed\)/);
      expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([]);
    },
  );

  it(
    'annotations judged from effects: the honest server gets no warning, the dishonest one one per hint',
    { timeout: 90_000 },
    async () => {
      const audit = async (mode: string) => {
        const data = mkdtempSync(join(tmpdir(), `mtc-annotations-${mode}-`));
        mkdirSync(join(data, 'notes'));
        const before = contentPrint(data);
        const run = await runCli([
          '--stdio',
          `${process.execPath} ${ANNOTATION_EFFECTS} --data ${data} ${mode}`,
          '--sandbox',
          '--runs',
          '10',
        ]);
        expect(contentPrint(data)).toEqual(before);
        return run.report!;
      };
      const [honest, dishonest] = await Promise.all([audit('honest'), audit('dishonest')]);
      for (const id of HONESTY_CHECKS) expect(statusOf(honest, id).filter((s) => s.startsWith('warn'))).toEqual([]);
      expect(statusOf(honest, 'tools.annotations.read-only-honest')).toContain('pass');
      expect(statusOf(dishonest, 'tools.annotations.read-only-honest')).toContain('warn read_notes');
      expect(statusOf(dishonest, 'tools.annotations.destructive-honest')).toContain('warn add_note');
      expect(statusOf(dishonest, 'tools.annotations.idempotent-honest')).toContain('warn set_flag');
      const warning = dishonest.checks.find(
        (c) => c.id === 'tools.annotations.read-only-honest' && c.status === 'warn',
      )!;
      expect(warning.keywordText).toBe('descriptive');
      expect(warning.quote).toBe('If true, the tool does not modify its environment.');
    },
  );

  it(
    'real npm servers: every listed tool called, the folders they were pointed at and the surroundings unchanged',
    { timeout: 120_000 },
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'mtc-fs-sandbox-'));
      writeFileSync(join(root, 'notes.txt'), 'keep me\n');
      const memoryDir = mkdtempSync(join(tmpdir(), 'mtc-memory-sandbox-'));
      const memory = join(memoryDir, 'memory.json');
      writeFileSync(memory, '');
      const servers: [string, string, Record<string, string>][] = [
        ['server-filesystem', `${npmBin('@modelcontextprotocol/server-filesystem')} ${root}`, {}],
        ['server-memory', npmBin('@modelcontextprotocol/server-memory'), { MEMORY_FILE_PATH: memory }],
      ];
      const before = { root: contentPrint(root), memory: contentPrint(memoryDir), surroundings: surroundingsPrint() };
      for (const [name, command, env] of servers) {
        const run = await runCli(
          [
            '--stdio',
            command,
            '--sandbox',
            '--runs',
            '10',
            ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
          ],
          { timeoutMs: 100_000 },
        );
        const depth = run.report!.depth!;
        expect(depth.toolsCalled, `${name} has every listed tool called`).toBe(depth.toolsListed);
        expect(depth.sandboxed).toBe(true);
        expect(
          Object.values(run.report!.effects!).some((e) => e.callsWithChanges > 0),
          `${name}'s writes were recorded`,
        ).toBe(true);
        // Their hints are honest: server-memory rewrites its whole file as create_entities adds to it, which only
        // gains.
        const honesty = run.report!.checks.filter((c) => HONESTY_CHECKS.includes(c.id));
        expect(
          honesty.filter((c) => c.status !== 'pass').map((c) => `${c.status} ${c.id} ${c.tool ?? ''}`),
          name,
        ).toEqual([]);
      }
      expect(contentPrint(root)).toEqual(before.root);
      expect(contentPrint(memoryDir)).toEqual(before.memory);
      expect(surroundingsPrint()).toEqual(before.surroundings);
    },
  );
});

/** The entry script of an npm server package (its bin), run with this node. */
function npmBin(pkg: string): string {
  const manifest = require(`${pkg}/package.json`) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return `${process.execPath} ${join(dirname(require.resolve(`${pkg}/package.json`)), bin)}`;
}
