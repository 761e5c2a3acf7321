import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetReport } from '../src/model/fleet.js';
import { CONFORMANCE_OUTCOMES } from '../src/model/fleet.js';
import { sandboxUnavailable } from '../src/sandbox/index.js';
import {
  CENSUS_FILE,
  CENSUS_JSON,
  CENSUS_MD,
  SANDBOX_FLAGS,
  censusArgs,
  censusMarkdown,
  censusOf,
  censusPackages,
  sandboxCensusOf,
} from '../scripts/census.mjs';
import { BUILT, ROOT, runCli } from './helpers/cli.js';
import { contentPrint, surroundingsPrint } from './helpers/content-print.js';

type Census = ReturnType<typeof censusOf>;
type SandboxCensus = ReturnType<typeof sandboxCensusOf>;
const committed = JSON.parse(readFileSync(join(ROOT, CENSUS_JSON), 'utf8')) as Census & { sandbox: SandboxCensus | { unavailable: string } };
const unavailable = await sandboxUnavailable();
if (unavailable !== undefined) console.warn(`skipping the census under --sandbox: ${unavailable}`);

/** What a verdict is made of: a change here is a change of the census, to be regenerated (npm run census) and reviewed. */
const verdicts = (census: Census) => census.servers.map(({ name, outcome, revision, fails, warns, errors }) => ({ name, outcome, revision, fails, warns, errors }));

describe('the census (docs/census.md)', () => {
  it('docs/census.md is the rendering of docs/census.json, and the packages are the ones installed', () => {
    expect(readFileSync(join(ROOT, CENSUS_MD), 'utf8')).toBe(censusMarkdown(committed));
    const packages = censusPackages(ROOT);
    expect(Object.keys(packages).length).toBeGreaterThan(0);
    for (const server of committed.servers.filter((s) => s.package !== undefined)) expect(server.package).toBe(packages[server.name]);
  });

  it.skipIf(!BUILT)('the fleet of the census gives every server the outcome, revision and findings committed', { timeout: 300_000 }, async () => {
    // The arguments npm run census gives, from the repository root (runCli's cwd), as the census's paths are relative to it.
    const outputDir = mkdtempSync(join(tmpdir(), 'mtc-census-'));
    const run = await runCli(censusArgs(outputDir), { timeoutMs: 280_000 });
    const fleet = JSON.parse(readFileSync(join(outputDir, 'fleet.json'), 'utf8')) as FleetReport;
    const now = censusOf(fleet, censusPackages(ROOT));
    expect(verdicts(now), `the census changed: run npm run census and review docs/census.md\n${run.stdout}`).toEqual(verdicts(committed));
    expect(now.findings).toEqual(committed.findings);
    // The fleet's exit code follows its outcomes: 1 exactly when a server is failing.
    expect(run.code).toBe(now.servers.some((s) => s.outcome === 'failing') ? 1 : 0);
  });

  it('census.json under --sandbox: no server is shallower than in safe mode, and every stdio server was sandboxed', () => {
    if ('unavailable' in committed.sandbox) return expect.unreachable(`census.json has no census under --sandbox (${committed.sandbox.unavailable}): run npm run census where bwrap works`);
    const safe = new Map(committed.servers.map((s) => [s.name, s]));
    expect(committed.sandbox.servers.map((s) => s.name)).toEqual(committed.servers.map((s) => s.name));
    for (const server of committed.sandbox.servers) {
      expect(server.sandboxed, server.name).toBe(server.transport === 'stdio');
      expect(server.depth!.toolsCalled, server.name).toBeGreaterThanOrEqual(safe.get(server.name)!.depth!.toolsCalled);
    }
  });

  // The census's second run, cheaper (about 17 s rather than 30 on a loaded 2-core machine): the checks of the tools area
  // only (every tool call and the annotation-honesty checks are among them; the lifecycle and wire checks, which start
  // more server processes, are not), 10 property cases rather than 50, and a 5 s --timeout, which server-everything's
  // trigger-long-running-operation outlives once. Its invariants rest on none of them: every listed tool called, no
  // annotation-honesty warning the census does not record, the servers that wrote write again, and nothing outside the
  // sandbox changed (the census's folder, each server's package folder, HOME and the project's sources).
  it.skipIf(!BUILT || unavailable !== undefined)(
    'under --sandbox every stdio server has every listed tool called, nothing outside the sandbox changes, and no annotation-honesty warning is new',
    { timeout: 150_000 },
    async () => {
      if ('unavailable' in committed.sandbox) return expect.unreachable('census.json has no census under --sandbox: run npm run census');
      const recorded = committed.sandbox;
      // The folders the servers were pointed at: the census's own and each server's package folder (its entry script's).
      const entries = Object.values((JSON.parse(readFileSync(join(ROOT, CENSUS_FILE), 'utf8')) as { mcpServers: Record<string, { args: string[] }> }).mcpServers);
      const folders = [...new Set([join(ROOT, 'test/fixtures/census'), ...entries.map((e) => dirname(realpathSync(join(ROOT, e.args[0]!))))])];
      const before = { folders: folders.map(contentPrint), surroundings: surroundingsPrint() };
      const outputDir = mkdtempSync(join(tmpdir(), 'mtc-census-sandbox-'));
      const run = await runCli(censusArgs(outputDir, [...SANDBOX_FLAGS, '--checks', 'tools.*', '--runs', '10', '--timeout', '5000']), { timeoutMs: 140_000 });
      const now = sandboxCensusOf(JSON.parse(readFileSync(join(outputDir, 'fleet.json'), 'utf8')) as FleetReport, censusPackages(ROOT));
      expect(now.servers.map((s) => s.name)).toEqual(recorded.servers.map((s) => s.name));
      const safe = new Map(committed.servers.map((s) => [s.name, s]));
      for (const server of now.servers.filter((s) => s.transport === 'stdio')) {
        expect(CONFORMANCE_OUTCOMES, `${server.name} was audited\n${run.stdout}`).toContain(server.outcome);
        expect(server.sandboxed, server.name).toBe(true);
        expect(server.depth!.toolsCalled, `${server.name} has every listed tool called`).toBe(server.depth!.toolsListed);
        expect(server.depth!.toolsCalled, server.name).toBeGreaterThanOrEqual(safe.get(server.name)!.depth!.toolsCalled);
        const known = recorded.servers.find((s) => s.name === server.name)!;
        expect(server.honestyWarnings.filter((w) => !known.honestyWarnings.some((k) => k.id === w.id && k.tool === w.tool)), server.name).toEqual([]);
        // A server the census records as changing files still does (the fewer cases still write), and no other does.
        expect(Object.keys(server.changedFiles).length > 0, `${server.name} changed files`).toBe(Object.keys(known.changedFiles).length > 0);
      }
      expect(folders.map(contentPrint)).toEqual(before.folders);
      expect(existsSync(join(ROOT, 'test/fixtures/census/memory.jsonl'))).toBe(false);
      expect(surroundingsPrint()).toEqual(before.surroundings);
    },
  );
});
