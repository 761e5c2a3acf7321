import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPath } from '../../../test/helpers/shared.js';
import type { FleetReport } from '../../model/fleet.js';
import { REDACTED } from '../../model/redacted.js';
import { stripXmlForbidden } from '../../report/text-safety.js';
import { all, child, parseXml, type XmlNode } from '../../report/xml.fixture.js';
import { FLEET_REPORT, FLEET_SECRET, HOSTILE_NAME } from './fleet-report.fixture.js';
import { FLEET_FINDINGS_SUITE, fleetJunit } from './junit.js';

const XSD = sharedPath('formats/junit-10.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
const xsdSkipReason = !hasXmllint
  ? 'xmllint is not on PATH (install libxml2-utils)'
  : !existsSync(XSD)
    ? `${XSD} is missing (../shared absent)`
    : undefined;

const xml = fleetJunit(FLEET_REPORT);
const root = parseXml(xml);
const suites = root.children;
const suite = (name: string) => suites.find((s) => s.attributes.name === stripXmlForbidden(name)) as XmlNode;
const properties = (node: XmlNode) =>
  Object.fromEntries((child(node, 'properties')?.children ?? []).map((p) => [p.attributes.name, p.attributes.value]));

describe('fleet JUnit', () => {
  it('has a testsuite per server, in fleet order, then the fleet findings, with counts that add up', () => {
    expect(suites.map((s) => s.attributes.name)).toEqual([
      ...FLEET_REPORT.servers.map((s) => stripXmlForbidden(s.name)),
      FLEET_FINDINGS_SUITE,
    ]);
    // 3 + 4 + 2 checks, 1 outcome case each for the 6 servers not audited through, 2 of the timed-out one's, 2
    // findings.
    expect(root.attributes).toEqual({
      name: 'mcp-tools-conformance fleet',
      tests: '19',
      failures: '1',
      errors: '0',
      time: '312.345',
    });
    expect(all(root, 'testcase')).toHaveLength(19);
    for (const s of suites) expect(all(s, 'testcase').length, s.attributes.name).toBe(Number(s.attributes.tests));
    expect(
      suites.map((s) => [s.attributes.tests, s.attributes.failures, s.attributes.errors, s.attributes.skipped]),
    ).toEqual([
      ['3', '0', '0', '1'],
      ['4', '1', '0', '1'],
      ['2', '0', '0', '0'],
      ['1', '0', '0', '1'],
      ['1', '0', '0', '1'],
      ['1', '0', '0', '1'],
      ['3', '0', '0', '2'],
      ['1', '0', '0', '1'],
      ['1', '0', '0', '1'],
      ['2', '0', '0', '0'],
    ]);
  });

  it("writes an audited server's checks as the single audit does, classname <server>.<area>, its fleet facts as properties", () => {
    const weather = suite(HOSTILE_NAME);
    const cases = all(weather, 'testcase');
    expect(cases.map((c) => c.attributes.classname)).toEqual(
      ['lifecycle', 'tools-list', 'tools-list', 'tools-list'].map(
        (area) => `${stripXmlForbidden(HOSTILE_NAME)}.${area}`,
      ),
    );
    const failing = cases.find((c) => child(c, 'failure') !== undefined)!;
    expect(failing.attributes.name).toBe(
      'tools-list › tools.name.charset › Tool names use only allowed characters [bad name!]',
    );
    expect(child(failing, 'failure')?.attributes.type).toBe('MUST');
    expect(properties(weather)).toMatchObject({
      transport: 'stdio',
      protocolVersion: '2026-07-28',
      server: stripXmlForbidden(HOSTILE_NAME),
      source: 'claude_desktop_config.json',
      outcome: 'failing',
      depth: '1/12, 9 checks skipped (no callable tool)',
      reportFile: 'servers/weather-script-img-src-x-onerror-alert-1/report.json',
    });
  });

  it('writes a server that was not audited as one skipped test case that says why, with its stderr', () => {
    const missing = suite('missing-cmd');
    const [only] = all(missing, 'testcase');
    expect(only?.attributes).toEqual({
      classname: 'missing-cmd',
      name: 'missing-cmd › could not start',
      time: '0.040',
    });
    expect(child(only!, 'skipped')?.attributes.message).toBe(
      'could not start: spawn nosuch-mcp-server ENOENT: not on PATH (PATH=/usr/bin:/bin); install it or give ' +
        'its full path',
    );
    expect(child(only!, 'system-out')?.text).toBe(
      `spawn nosuch-mcp-server ENOENT: not on PATH (PATH=/usr/bin:/bin); install it or give its full ` +
        `path\nstderr:\nnosuch-mcp-server: using token ${REDACTED}\n${stripXmlForbidden('\u001b[31mfatal')}` +
        `</script><img src=x onerror=alert(1)>`,
    );
    expect(child(all(suite('github'), 'testcase')[0]!, 'skipped')?.attributes.message).toBe(
      'needs secret: GITHUB_TOKEN',
    );
    expect(properties(suite('old-one'))).toMatchObject({
      outcome: 'skipped',
      why: 'disabled in its file',
      source: '.cursor/mcp.json',
    });
  });

  it('adds the outcome case to a server audited only in part (timed out): its checks, then why it stopped', () => {
    const cases = all(suite('slow'), 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual([
      'lifecycle › tools.capability.declared › Title of tools.capability.declared',
      'tools-list › tools.list.pagination.cursor › Title of tools.list.pagination.cursor',
      'slow › timed out',
    ]);
    expect(child(cases[2]!, 'skipped')?.attributes.message).toBe(
      'timed out: the audit exceeded --max-duration (300 s)',
    );
  });

  it('with --fail-on-unavailable, the servers that could not be audited are errors, so the page is red as the exit code is', () => {
    const strict = parseXml(fleetJunit({ ...FLEET_REPORT, failOnUnavailable: true }));
    expect(strict.attributes).toMatchObject({ tests: '19', failures: '1', errors: '5' });
    const errors = all(strict, 'error');
    expect(errors.map((e) => e.attributes.type)).toEqual([
      'could-not-start',
      'unreachable',
      'needs-secret',
      'timed-out',
      'invalid-entry',
    ]);
    expect(errors[4]?.attributes.message).toBe('invalid entry: neither "command" nor "url"');
    expect(errors[0]?.text).toContain(`stderr:\nnosuch-mcp-server: using token ${REDACTED}`);
    const skipped = strict.children.find((s) => s.attributes.name === 'old-one')!;
    expect(child(all(skipped, 'testcase')[0]!, 'skipped')?.attributes.message).toBe('skipped: disabled in its file');
  });

  it('a conformance outcome without a report (not expected) still counts: a failure when failing, a pass otherwise', () => {
    const bare = (outcome: 'failing' | 'warnings') => ({
      name: outcome,
      source: 'mcp.json',
      transport: 'stdio' as const,
      outcome,
      why: `why ${outcome}`,
      durationMs: 5,
    });
    const parsed = parseXml(
      fleetJunit({ ...FLEET_REPORT, servers: [bare('failing'), bare('warnings')], findings: [] }),
    );
    expect(parsed.attributes).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    const [failing, warnings] = all(parsed, 'testcase');
    expect(child(failing!, 'failure')?.attributes).toEqual({ message: 'failing: why failing', type: 'failing' });
    expect(warnings?.children.map((c) => [c.name, c.text])).toEqual([['system-out', 'why warnings']]);
    expect(parsed.children[0]?.attributes).toMatchObject({ tests: '1', failures: '1', errors: '0', skipped: '0' });
  });

  it('a server whose tools differ from the fleet lock gets a failing outcome case beside its passing checks', () => {
    const audited = FLEET_REPORT.servers.find((s) => s.name === 'reference')!;
    const lock = {
      file: 'servers/reference/tools.lock.json',
      status: 'changed' as const,
      added: [],
      removed: [],
      changed: [{ tool: 'search_docs', fields: ['description'] }],
    };
    const why = 'its tools differ from the lock: ~search_docs (description)';
    const changed = { ...audited, outcome: 'failing' as const, why, report: { ...audited.report!, lock } };
    const parsed = parseXml(fleetJunit({ ...FLEET_REPORT, servers: [changed], findings: [] }));
    expect(parsed.attributes).toMatchObject({ failures: '1' });
    const failure = all(parsed, 'testcase')
      .map((c) => child(c, 'failure'))
      .find((f) => f !== undefined);
    expect(failure?.attributes).toEqual({ message: `failing: ${why}`, type: 'failing' });
    // Servers gone since the lock: one failure in the fleet's own suite.
    const gone = parseXml(
      fleetJunit({
        ...FLEET_REPORT,
        servers: [audited],
        findings: [],
        lock: { mode: 'compare', file: 'fleet.lock.json', changed: [], removed: ['old', 'older'] },
      }),
    );
    expect(gone.attributes).toMatchObject({ failures: '1' });
    expect(child(all(gone, 'testcase').at(-1)!, 'failure')?.attributes).toEqual({
      message: '2 server(s) of the lock fleet.lock.json gone from the fleet: old, older',
      type: 'lock',
    });
    // The same server matching its lock adds no case.
    const matched = parseXml(
      fleetJunit({
        ...FLEET_REPORT,
        servers: [{ ...audited, report: { ...audited.report!, lock: { ...lock, status: 'match', changed: [] } } }],
        findings: [],
      }),
    );
    expect(matched.attributes).toMatchObject({ failures: '0', tests: String(audited.report!.checks.length) });
  });

  it('writes each fleet finding as a passing test case that says it is a warning', () => {
    const cases = all(suite(FLEET_FINDINGS_SUITE), 'testcase');
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name])).toEqual([
      ['fleet', `fleet.tool-name.shared › reference, ${stripXmlForbidden(HOSTILE_NAME)}`],
      ['fleet', `fleet.description.shadowing › ${stripXmlForbidden(HOSTILE_NAME)}, reference`],
    ]);
    expect(cases[0]?.children.map((c) => c.name)).toEqual(['system-out']);
    expect(child(cases[0]!, 'system-out')?.text).toBe(
      `requirement: fleet.tool-name.shared\nstatus: warn\nservers: reference, ` +
        `${stripXmlForbidden(HOSTILE_NAME)}\ntools: echo\n\nwarning: Two servers serve a tool named "echo"`,
    );
    const extended = parseXml(fleetJunit(FLEET_REPORT, { extended: true }));
    const finding = all(extended, 'testcase').find((c) => c.attributes.classname === 'fleet')!;
    expect(child(finding, 'properties')?.children.map((p) => p.attributes.name)).toEqual([
      'requirement',
      'status',
      'servers',
      'tools',
    ]);
    expect(extended.attributes.skipped).toBe('9');
  });

  it('escapes markup, strips what XML forbids, and shows no secret', () => {
    expect(xml.isWellFormed()).toBe(true);
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    expect(xml).not.toContain('<script');
    expect(xml).toContain('weather&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(xml).not.toContain(FLEET_SECRET);
    expect(xml).toContain(REDACTED);
  });

  describe.skipIf(xsdSkipReason !== undefined)(
    `against junit-10.xsd ${xsdSkipReason ? `(SKIPPED: ${xsdSkipReason})` : ''}`,
    () => {
      let dir: string;
      beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'fleet-junit-'));
      });
      afterAll(async () => {
        await rm(dir, { recursive: true, force: true });
      });
      const valid = async (name: string, content: string) => {
        const file = join(dir, name);
        await writeFile(file, content);
        return spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
      };

      it('validates: the fixture fleet, with --fail-on-unavailable, and an empty fleet', async () => {
        const empty: FleetReport = { ...FLEET_REPORT, servers: [], findings: [] };
        for (const [name, report] of [
          ['fleet.xml', FLEET_REPORT],
          ['strict.xml', { ...FLEET_REPORT, failOnUnavailable: true }],
          ['empty.xml', empty],
        ] as const) {
          const result = await valid(name, fleetJunit(report));
          expect(result.status, `${name}: ${result.stderr}`).toBe(0);
        }
      });

      it('would catch an invalid file (the validator is not a no-op)', async () => {
        const broken = await valid(
          'broken.xml',
          fleetJunit(FLEET_REPORT).replace('<testsuite name="reference"', '<testsuite'),
        );
        expect(broken.status).not.toBe(0);
        expect(() =>
          execFileSync('xmllint', ['--noout', '--schema', XSD, join(dir, 'broken.xml')], { stdio: 'pipe' }),
        ).toThrow();
      });
    },
  );
});
