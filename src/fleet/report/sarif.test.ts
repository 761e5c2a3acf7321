import { existsSync, readFileSync } from 'node:fs';
import Ajv04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../../test/helpers/shared.js';
import { REDACTED } from '../../model/redacted.js';
import { DEFAULT_SARIF_ARTIFACT, renderSarif } from '../../report/sarif.js';
import { FLEET_REPORT, FLEET_SECRET, HOSTILE_NAME } from './fleet-report.fixture.js';
import { FLEET_FINDINGS_CATEGORY, fleetSarif, serverArtifact, serverCategories } from './sarif.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Json = Record<string, any>;
const SCHEMA = sharedPath('formats/sarif-schema-2.1.0.json');
const haveSchema = existsSync(SCHEMA);
if (!haveSchema)
  console.warn(`fleet SARIF schema test skipped: ${SCHEMA} is absent (it lives in the team's shared folder)`);

const sarif = fleetSarif(FLEET_REPORT) as Json;
const runs: Json[] = sarif.runs;
const runOf = (name: string) => runs.find((run) => run.properties?.server === name)!;

describe('fleet SARIF 2.1.0', () => {
  it.skipIf(!haveSchema)(
    'validates against the official SARIF 2.1.0 schema (and the validator rejects a broken log)',
    () => {
      const ajv = new Ajv04.default({ allErrors: true, strict: false, validateFormats: false });
      const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')));
      expect(validate(sarif), ajv.errorsText(validate.errors)).toBe(true);
      const empty = fleetSarif({ ...FLEET_REPORT, servers: [], findings: [] });
      expect(validate(empty), ajv.errorsText(validate.errors)).toBe(true);
      const broken = structuredClone(sarif);
      broken.runs.at(-1).results[0].level = 'fatal';
      expect(validate(broken)).toBe(false);
    },
  );

  it('has a run per server, in fleet order, each naming its server, then the run of the fleet findings', () => {
    expect(runs).toHaveLength(FLEET_REPORT.servers.length + 1);
    expect(runs.slice(0, -1).map((run) => run.properties.server)).toEqual(FLEET_REPORT.servers.map((s) => s.name));
    expect(runs.map((run) => run.automationDetails.id)).toEqual([
      'mcp-tools-conformance/server/reference/',
      `mcp-tools-conformance/server/${encodeURIComponent(HOSTILE_NAME)}/`,
      'mcp-tools-conformance/server/warn-only/',
      'mcp-tools-conformance/server/missing-cmd/',
      'mcp-tools-conformance/server/remote/',
      'mcp-tools-conformance/server/github/',
      'mcp-tools-conformance/server/slow/',
      'mcp-tools-conformance/server/no-command/',
      'mcp-tools-conformance/server/old-one/',
      FLEET_FINDINGS_CATEGORY,
    ]);
    expect(runOf('warn-only').properties).toMatchObject({
      outcome: 'warnings',
      source: '.vscode/mcp.json',
      reportFile: 'servers/warn-only/report.json',
      depth: { toolsCalled: 0, toolsListed: 2 },
    });
  });

  it("an audited server's run is the single audit's run, filed under the host file that declares it", () => {
    for (const server of FLEET_REPORT.servers.filter((s) => s.report !== undefined)) {
      const single = (renderSarif(server.report!, { artifact: server.source }) as Json).runs[0];
      const run = runOf(server.name);
      expect(run.results, server.name).toEqual(single.results);
      expect(run.tool, server.name).toEqual(single.tool);
    }
    const weather = runOf(HOSTILE_NAME);
    expect(
      weather.results.map((r: Json) => [r.ruleId, r.level, r.locations[0].physicalLocation.artifactLocation.uri]),
    ).toEqual([
      ['tools.name.charset', 'error', 'claude_desktop_config.json'],
      ['tools.list.deterministic-order', 'warning', 'claude_desktop_config.json'],
    ]);
    expect(runOf('reference').invocations[0].executionSuccessful).toBe(true);
  });

  it('a server that was not audited is a run without results whose notification says why; one cut short says it too', () => {
    const missing = runOf('missing-cmd');
    expect(missing.results).toEqual([]);
    expect(missing.invocations[0].executionSuccessful).toBe(false);
    expect(missing.invocations[0].toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: {
          text:
            'missing-cmd: could not start: spawn nosuch-mcp-server ENOENT: not on PATH (PATH=/usr/bin:/bin); ' +
            'install it or give its full path',
        },
      },
    ]);
    expect(missing.properties.stderr).toEqual([
      `nosuch-mcp-server: using token ${REDACTED}`,
      '\u001b[31mfatal</script><img src=x onerror=alert(1)>',
    ]);
    expect(runOf('github').invocations[0].toolExecutionNotifications[0].message.text).toBe(
      'github: needs secret: GITHUB_TOKEN',
    );
    const skipped = runOf('old-one').invocations[0];
    expect([skipped.executionSuccessful, skipped.toolExecutionNotifications[0].level]).toEqual([true, 'note']);
    const slow = runOf('slow').invocations[0];
    expect(slow.executionSuccessful).toBe(false);
    expect(slow.toolExecutionNotifications.map((n: Json) => n.message.text)).toEqual([
      'slow: timed out: the audit exceeded --max-duration (300 s)',
      'the audit exceeded --max-duration (300 s)',
    ]);
  });

  it('files the fleet findings as warnings, one rule per kind, located at each server they name', () => {
    const findings = runs.at(-1)!;
    expect(findings.tool.driver.rules.map((r: Json) => [r.id, r.defaultConfiguration.level])).toEqual([
      ['fleet.tool-name.shared', 'warning'],
      ['fleet.description.shadowing', 'warning'],
    ]);
    expect(findings.results.map((r: Json) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ['fleet.tool-name.shared', 0, 'warning'],
      ['fleet.description.shadowing', 1, 'warning'],
    ]);
    const [shared] = findings.results;
    expect(shared.message.text).toBe(
      `Two servers serve a tool named "echo"\nservers: reference, ${HOSTILE_NAME}\ntools: echo`,
    );
    expect(
      shared.locations.map((l: Json) => [l.physicalLocation.artifactLocation.uri, l.logicalLocations[0].name]),
    ).toEqual([
      ['.vscode/mcp.json', 'reference'],
      ['claude_desktop_config.json', HOSTILE_NAME],
    ]);
    const again = (fleetSarif(FLEET_REPORT) as Json).runs
      .at(-1)
      .results.map((r: Json) => r.partialFingerprints['mcpToolsConformance/v1']);
    expect(again).toEqual(findings.results.map((r: Json) => r.partialFingerprints['mcpToolsConformance/v1']));
    expect(new Set(again).size).toBe(2);
  });

  it('files under --sarif-artifact when given, else a repository-relative host file, else the default', () => {
    expect(serverArtifact('.vscode/mcp.json', {})).toBe('.vscode/mcp.json');
    expect(serverArtifact('.vscode\\mcp.json', {})).toBe('.vscode/mcp.json');
    for (const outside of [
      '/home/me/.cursor/mcp.json',
      '~/.claude.json',
      'C:\\Users\\me\\mcp.json',
      '../other/mcp.json',
      '',
    ]) {
      expect(serverArtifact(outside, {}), outside).toBe(DEFAULT_SARIF_ARTIFACT);
    }
    expect(serverArtifact('.vscode/mcp.json', { artifact: 'infra/mcp.json' })).toBe('infra/mcp.json');
    const filed = fleetSarif(FLEET_REPORT, { artifact: 'infra/mcp.json' }) as Json;
    const uris = filed.runs.flatMap((run: Json) =>
      run.results.flatMap((r: Json) => r.locations.map((l: Json) => l.physicalLocation.artifactLocation.uri)),
    );
    expect(new Set(uris)).toEqual(new Set(['infra/mcp.json']));
  });

  it('gives servers of the same name (from two files) categories of their own', () => {
    expect(serverCategories([{ name: 'github' }, { name: 'a/b' }, { name: 'github' }])).toEqual([
      'mcp-tools-conformance/server/github/',
      'mcp-tools-conformance/server/a%2Fb/',
      'mcp-tools-conformance/server/github~2/',
    ]);
  });

  it('shows no secret', () => {
    const text = JSON.stringify(sarif);
    expect(text).not.toContain(FLEET_SECRET);
    expect(text).toContain(REDACTED);
  });
});
