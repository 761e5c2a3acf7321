import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { FleetReport } from '../src/model/fleet.js';
import type { RunReport } from '../src/model/report.js';
import { BUILT, ROOT, runCli } from './helpers/cli.js';
import { evaluateHosts } from '../src/hosts/evaluate.js';
import { HOST_PROFILES } from '../src/hosts/rules/index.js';
import { sourceProblems } from '../src/hosts/sources.js';
import { strictRewrite } from '../src/hosts/strict-schema.js';
import { HOST_NAMES, type HostName } from '../src/model/hosts.js';
// @ts-expect-error a fixture module without types
import { HOST_RULE_TOOLS, SERVER_NAME } from './fixtures/host-rules-tools.mjs';

interface FixtureTool {
  tool: { name: string; description?: string; inputSchema: unknown };
  hosts: Record<HostName, string>;
  rules: string[];
}
const FIXTURES = HOST_RULE_TOOLS as FixtureTool[];
const ALL_RULES = HOST_NAMES.flatMap((host) => HOST_PROFILES[host].rules);

const judged = evaluateHosts({
  tools: FIXTURES.map((f) => f.tool),
  serverName: SERVER_NAME,
  serverNameFrom: 'option',
  hosts: HOST_NAMES,
  failOnHost: [],
  listingComplete: true,
});
const resultOf = (host: HostName, tool: string) =>
  judged.hosts.find((h) => h.host === host)!.tools.find((t) => t.tool === tool)!;

describe('host rules, each held to a fixture tool that breaks it alone', () => {
  it.each(FIXTURES.map((f) => [f.tool.name.slice(0, 24), f] as const))(
    '%s: the verdict of every host, and exactly its rules',
    (_name, fixture) => {
      const verdicts = Object.fromEntries(HOST_NAMES.map((host) => [host, resultOf(host, fixture.tool.name).verdict]));
      expect(verdicts).toEqual(fixture.hosts);
      const fired = HOST_NAMES.flatMap((host) => resultOf(host, fixture.tool.name).findings.map((f) => f.rule));
      expect([...new Set(fired)].sort()).toEqual([...fixture.rules].sort());
    },
  );

  it('every rule is broken by some fixture tool, and each fixture tool breaks one kind of rule', () => {
    const covered = new Set(FIXTURES.flatMap((f) => f.rules));
    expect(ALL_RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
    for (const fixture of FIXTURES)
      expect(
        new Set(fixture.rules.map((id) => id.split('.').slice(2).join('.').replace('characters', 'pattern'))).size,
      ).toBeLessThanOrEqual(1);
  });

  it('the clean tool works on every host', () => {
    for (const host of HOST_NAMES)
      expect(resultOf(host, 'clean_echo')).toEqual({ tool: 'clean_echo', verdict: 'works', findings: [] });
  });

  it('gives the smallest fix for each finding', () => {
    expect(resultOf('claude', 'files.read').findings[0]!.fix).toBe('rename `files.read` → `files_read`');
    expect(resultOf('openai', 'open_filter').findings[0]!.fix).toBe(
      'add `additionalProperties: false` to `/properties/filter` (name the keys it takes as properties)',
    );
    expect(resultOf('claude', FIXTURES[6]!.tool.name).findings[0]!.fix).toMatch(
      /^shorten `long_n+` to 114 characters or fewer/,
    );
    for (const host of judged.hosts)
      for (const tool of host.tools) for (const finding of tool.findings) expect(finding.fix.length).toBeGreaterThan(5);
  });

  it('shows the strict schema where the rewrite is mechanical, and that schema passes the strict rules', () => {
    const optional = resultOf('openai', 'optional_query');
    expect(optional.rewrittenSchema).toEqual({
      type: 'object',
      properties: { query: { type: ['string', 'null'] } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(resultOf('openai', 'one_of_value').rewrittenSchema).toEqual({
      type: 'object',
      properties: { value: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      required: ['value'],
      additionalProperties: false,
    });
    // An object open to other keys cannot be closed without changing what it takes: no rewrite.
    expect(resultOf('openai', 'open_filter').rewrittenSchema).toBeUndefined();
    const again = evaluateHosts({
      tools: [
        { name: 'q', description: 'd', inputSchema: optional.rewrittenSchema },
        { name: 'v', description: 'd', inputSchema: resultOf('openai', 'one_of_value').rewrittenSchema },
      ],
      serverName: SERVER_NAME,
      serverNameFrom: 'option',
      hosts: ['openai'],
      failOnHost: [],
      listingComplete: true,
    });
    expect(again.hosts[0]!.tools.map((t) => t.verdict)).toEqual(['works', 'works']);
  });

  it('counts the verdicts per host and lists the rules judged with their sources', () => {
    const claude = judged.hosts.find((h) => h.host === 'claude')!;
    expect(claude.counts).toEqual({ works: 9, degraded: 1, blocked: 4 });
    expect(judged.rules.map((r) => r.id)).toEqual(ALL_RULES.map((r) => r.id));
    expect(judged.hosts.find((h) => h.host === 'cursor')!.notSourced.length).toBeGreaterThan(0);
  });
});

describe('the strict rewrite', () => {
  it('closes nested objects, in items and $defs, and keeps an optional enum able to be left out (null)', () => {
    const schema = {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['C', 'F'] },
        points: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
        place: { $ref: '#/$defs/place' },
      },
      required: ['points', 'place'],
      $defs: {
        place: {
          type: 'object',
          properties: { city: { type: 'string' }, zip: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
        },
      },
    };
    expect(strictRewrite(schema)).toEqual({
      type: 'object',
      properties: {
        unit: { type: ['string', 'null'], enum: ['C', 'F', null] },
        points: {
          type: 'array',
          items: {
            type: 'object',
            properties: { x: { type: 'number' } },
            required: ['x'],
            additionalProperties: false,
          },
        },
        place: { $ref: '#/$defs/place' },
      },
      required: ['unit', 'points', 'place'],
      additionalProperties: false,
      $defs: {
        place: {
          type: 'object',
          properties: {
            city: { type: ['string', 'null'] },
            zip: { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] },
          },
          required: ['city', 'zip'],
          additionalProperties: false,
        },
      },
    });
  });

  it('gives no rewrite for an object open to other keys, however deep', () => {
    expect(
      strictRewrite({
        type: 'object',
        properties: { a: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } } },
      }),
    ).toBeUndefined();
    // An empty schema for additionalProperties is falsy to the SDK's test: not open.
    expect(strictRewrite({ type: 'object', additionalProperties: {} })).toEqual({
      type: 'object',
      additionalProperties: false,
    });
  });
});

describe('rule sources', () => {
  it('every rule has a URL, an exact quote and the date it was read, and an id of its host', () => {
    for (const rule of ALL_RULES) {
      expect(sourceProblems(rule)).toEqual([]);
      expect(rule.id.startsWith(`host.${rule.host}.`)).toBe(true);
    }
    expect(new Set(ALL_RULES.map((r) => r.id)).size).toBe(ALL_RULES.length);
  });

  it('catches a rule that lacks a URL, a quote or a date', () => {
    const source = {
      url: 'https://example.org/docs',
      kind: 'documentation' as const,
      quote: 'Names must be short enough.',
      read: '2026-12-07',
    };
    expect(sourceProblems({ id: 'host.x.a', sources: [] })).toEqual(['host.x.a: no source']);
    expect(sourceProblems({ id: 'host.x.a', sources: [{ ...source, url: '' }] })).toEqual([
      'host.x.a source 1: no https URL',
    ]);
    expect(sourceProblems({ id: 'host.x.a', sources: [{ ...source, quote: '' }] })).toEqual([
      'host.x.a source 1: no quote',
    ]);
    expect(sourceProblems({ id: 'host.x.a', sources: [{ ...source, read: 'today' }] })).toEqual([
      'host.x.a source 1: no date read',
    ]);
  });
});

const evaluatorCounts = () => judged.hosts.map((h) => h.counts);
const SERVER = `node ${join(ROOT, 'test/fixtures/host-rules-server.mjs')}`;
const outcomes = (report: RunReport | undefined) => report!.checks.map((c) => `${c.id}|${c.tool ?? ''}|${c.status}`);

describe.skipIf(!BUILT)('--hosts and --fail-on-host on the command line', () => {
  it('leaves every check outcome and the exit code as they are without --fail-on-host, and adds no check', async () => {
    const plain = await runCli(['--stdio', SERVER]);
    const judged = await runCli([
      '--stdio',
      SERVER,
      '--hosts',
      'all',
      '--server-name',
      SERVER_NAME,
      '--reporter',
      'console,json',
    ]);
    expect(plain.report!.hosts).toBeUndefined();
    expect(plain.code).toBe(1);
    expect(judged.code).toBe(plain.code);
    expect(outcomes(judged.report)).toEqual(outcomes(plain.report));
    expect(judged.report!.summary).toEqual(plain.report!.summary);
    expect(judged.report!.checks.some((c) => c.id.startsWith('host.'))).toBe(false);
    // The same verdicts as the evaluator gives the fixture's tools directly.
    expect(judged.report!.hosts!.hosts.map((h) => h.counts)).toEqual(evaluatorCounts());
    expect(judged.stdout).toContain('Hosts as server "hostfix" (--server-name):');
  });

  it('makes a blocked tool exit 1 only for the hosts of --fail-on-host', async () => {
    const args = ['--stdio', SERVER, '--checks', 'tools.name.*', '--server-name', SERVER_NAME];
    const passing = await runCli([...args, '--hosts', 'all']);
    expect(passing.code).toBe(0);
    expect((await runCli([...args, '--hosts', 'all', '--fail-on-host', 'cursor'])).code).toBe(0);
    const failing = await runCli([...args, '--fail-on-host', 'gemini', '--reporter', 'console,json']);
    expect(failing.code).toBe(1);
    expect(outcomes(failing.report)).toEqual(outcomes(passing.report));
    expect(failing.report!.hosts!.hosts.map((h) => h.host)).toEqual(['gemini']);
    expect(failing.stdout).toMatch(/Verdict: failing: .*a tool is blocked on gemini \(--fail-on-host\)/);
  });

  it('names the server by its own serverInfo when --server-name is not given, and refuses an unknown host', async () => {
    const run = await runCli(['--stdio', SERVER, '--checks', 'tools.name.unique', '--hosts', 'claude']);
    expect(run.report!.hosts).toMatchObject({ serverName: 'host-rules', serverNameFrom: 'server-info' });
    const bad = await runCli(['--stdio', SERVER, '--hosts', 'claude,chatgpt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown host "chatgpt"');
  });

  it('writes its own section into Markdown, HTML and SARIF (rule ids of its own)', async () => {
    const run = await runCli([
      '--stdio',
      SERVER,
      '--checks',
      'tools.name.*',
      '--hosts',
      'all',
      '--fail-on-host',
      'openai',
      '--server-name',
      SERVER_NAME,
      '--reporter',
      'json,markdown,html,sarif',
    ]);
    const markdown = readFileSync(join(run.outputDir, 'summary.md'), 'utf8');
    expect(markdown).toContain('### Host compatibility');
    expect(markdown).toContain('inputSchema rewritten for strict mode');
    expect(readFileSync(join(run.outputDir, 'report.html'), 'utf8')).toContain(
      '<section id="hosts"><h2>Host compatibility</h2>',
    );
    const sarif = JSON.parse(readFileSync(join(run.outputDir, 'report.sarif'), 'utf8')) as {
      runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string }[] }[];
    };
    const [sarifRun] = sarif.runs;
    expect(sarifRun!.tool.driver.rules.map((r) => r.id)).toEqual(
      expect.arrayContaining(['host.openai.strict-open-object', 'host.vscode.schema-invalid']),
    );
    const levels = (rule: string) => [
      ...new Set(sarifRun!.results.filter((r) => r.ruleId === rule).map((r) => r.level)),
    ];
    expect(levels('host.openai.name-pattern')).toEqual(['error']);
    expect(levels('host.claude.name-pattern')).toEqual(['warning']);
    expect(levels('host.gemini.name-length')).toEqual(['note']);
  });

  it('fleet: each server judged under its entry name; a --fail-on-host host that blocks a tool makes it failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-hosts-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          [SERVER_NAME]: { command: process.execPath, args: [join(ROOT, 'test/fixtures/host-rules-server.mjs')] },
        },
      }),
    );
    const run = await runCli([
      'fleet',
      file,
      '--checks',
      'tools.name.*',
      '--hosts',
      'all',
      '--fail-on-host',
      'vscode',
      '--reporter',
      'console,json,markdown',
    ]);
    const fleet = JSON.parse(readFileSync(join(run.outputDir, 'fleet.json'), 'utf8')) as FleetReport;
    const schema = JSON.parse(readFileSync(join(ROOT, 'data/report.schema.json'), 'utf8')) as object;
    expect(new Ajv2020({ strict: false, validateFormats: false }).validate(schema, fleet)).toBe(true);
    expect(run.code).toBe(1);
    expect(fleet.servers[0]).toMatchObject({ outcome: 'failing', why: 'a tool is blocked on vscode (--fail-on-host)' });
    expect(fleet.servers[0]!.report!.hosts).toMatchObject({ serverName: SERVER_NAME, serverNameFrom: 'option' });
    expect(run.stdout).toMatch(/Hosts \(tools each host blocks or degrades/);
    expect(readFileSync(join(run.outputDir, 'summary.md'), 'utf8')).toContain('| hostfix | 4 blocked · 1 degraded |');
  });
});
