import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetReport } from '../src/model/fleet.js';
import { CENSUS_JSON, CENSUS_MD, censusArgs, censusMarkdown, censusOf, censusPackages } from '../scripts/census.mjs';
import { BUILT, ROOT, runCli } from './helpers/cli.js';

type Census = ReturnType<typeof censusOf>;
const committed = JSON.parse(readFileSync(join(ROOT, CENSUS_JSON), 'utf8')) as Census;

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
});
