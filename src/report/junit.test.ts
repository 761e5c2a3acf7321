import { sharedPath } from '../../test/helpers/shared.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJunitReporter, JUNIT_REPORT_FILE, renderJunit } from './junit.js';
import { HOSTILE_TEXT, RUN_REPORT } from './run-report.fixture.js';
import { stripXmlForbidden } from './text-safety.js';
import { all, child, parseXml, type XmlNode } from './xml.fixture.js';

const XSD = sharedPath('formats/junit-10.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
const xsdSkipReason = !hasXmllint
  ? 'xmllint is not on PATH (install libxml2-utils)'
  : !existsSync(XSD)
    ? `${XSD} is missing (../shared absent)`
    : undefined;

let dir: string;
let xml: string;
let root: XmlNode;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-junit-'));
  const path = await createJunitReporter().finish(RUN_REPORT, join(dir, 'out'));
  expect(path).toBe(join(dir, 'out', JUNIT_REPORT_FILE));
  xml = await readFile(path ?? '', 'utf8');
  root = parseXml(xml);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('junit reporter', () => {
  it('writes a <testsuites> root whose counts match the report summary', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toEqual({
      name: 'mcp-tools-conformance',
      tests: String(RUN_REPORT.checks.length),
      failures: String(RUN_REPORT.summary.fail),
      errors: String(RUN_REPORT.summary.error),
      time: '6.234',
    });
    const cases = all(root, 'testcase');
    expect(cases).toHaveLength(RUN_REPORT.checks.length);
    expect(all(root, 'failure')).toHaveLength(RUN_REPORT.summary.fail);
    expect(all(root, 'error')).toHaveLength(RUN_REPORT.summary.error);
    expect(all(root, 'skipped')).toHaveLength(RUN_REPORT.summary.skip);
  });

  it('has one <testsuite> per area with its own counts', () => {
    const suites = root.children;
    expect(suites.map((suite) => suite.name)).toEqual(['testsuite', 'testsuite', 'testsuite']);
    expect(suites.map((suite) => suite.attributes.name)).toEqual(['lifecycle', 'tools-list', 'tools-call']);
    const toolsList = suites[1];
    expect(toolsList?.attributes).toMatchObject({
      tests: '3',
      failures: '1',
      errors: '0',
      skipped: '1',
      time: '0.023',
    });
    expect(all(toolsList as XmlNode, 'testcase').every((tc) => tc.attributes.classname === 'tools-list')).toBe(true);
  });

  it('names test cases area › id › title [tool] and maps each status', () => {
    const byName = new Map(all(root, 'testcase').map((tc) => [tc.attributes.name, tc]));
    const failing = byName.get('tools-list › tools.name.charset › Tool names use only allowed characters [bad name!]');
    expect(failing?.attributes.time).toBe('0.015');
    const failure = child(failing as XmlNode, 'failure');
    expect(failure?.attributes.type).toBe('MUST');
    expect(failure?.attributes.message).toBe(stripXmlForbidden(RUN_REPORT.checks[1]?.message ?? ''));
    expect(failure?.text).toContain('expected: names matching ^[A-Za-z0-9_.-]{1,128}$');
    expect(failure?.text).toContain('"method":"tools/list"');
    expect(failure?.text).toContain('{"note":"offending character","data":{"char":" ","index":3}}');
    expect(child(failing as XmlNode, 'system-out')?.text).toContain(
      'requirement: tools.name.charset\nkeyword: MUST\nkeywordText: MUST\nspecRef: ' +
        'server/tools#tool-names\nspecUrl: ' +
        'https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool-names\ntool: bad name!',
    );
    expect(failure?.text).toContain(
      'spec: MUST: the spec requires it · ' +
        'https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool-names',
    );

    const warning = byName.get('tools-list › tools.list.deterministic-order › Title of tools.list.deterministic-order');
    expect(warning?.children.map((c) => c.name)).toEqual(['system-out']);
    expect(child(warning as XmlNode, 'system-out')?.text).toMatch(
      /status: warn[\s\S]*warning: Two listings returned tools in different orders\nexpected: the same order each time/,
    );

    const skipped = byName.get('tools-list › tools.list.pagination.cursor › Title of tools.list.pagination.cursor');
    expect(child(skipped as XmlNode, 'skipped')?.attributes.message).toBe(
      'The target returned a single page; nothing to paginate',
    );

    const errored = byName.get('tools-call › tools.call.progress › Title of tools.call.progress [slow]');
    expect(child(errored as XmlNode, 'error')?.text).toContain('"kind":"timeout"');
  });

  it('escapes markup and strips every character XML 1.0 forbids', () => {
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    expect(xml.isWellFormed()).toBe(true);
    expect(xml).toContain('&lt;&amp;&quot;&apos;&gt; 🎉');
    const failure = all(root, 'failure')[0];
    expect(
      failure?.text.startsWith(
        `Tool name contains forbidden characters; description says: ${stripXmlForbidden(HOSTILE_TEXT)}`,
      ),
    ).toBe(true);
  });

  it('extended flavour puts properties inside test cases and counts skipped on the root', () => {
    const extended = parseXml(renderJunit(RUN_REPORT, { extended: true }));
    expect(extended.attributes.skipped).toBe('1');
    const warning = all(extended, 'testcase').find((tc) => tc.attributes.name?.includes('deterministic-order'));
    const properties = child(warning as XmlNode, 'properties')?.children.map((p) => [
      p.attributes.name,
      p.attributes.value,
    ]);
    expect(properties).toEqual([
      ['requirement', 'tools.list.deterministic-order'],
      ['keyword', 'SHOULD'],
      ['keywordText', 'SHOULD'],
      ['specRef', 'server/tools#tools'],
      ['specUrl', 'https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tools'],
      ['status', 'warn'],
    ]);
  });

  it.skipIf(xsdSkipReason !== undefined)(
    `validates against junit-10.xsd ${xsdSkipReason ? `(SKIPPED: ${xsdSkipReason})` : ''}`,
    async () => {
      const path = join(dir, 'out', JUNIT_REPORT_FILE);
      expect(() => execFileSync('xmllint', ['--noout', '--schema', XSD, path], { stdio: 'pipe' })).not.toThrow();
      const empty = join(dir, 'empty.xml');
      await writeFile(empty, renderJunit({ ...RUN_REPORT, checks: [], aborted: undefined }));
      expect(() => execFileSync('xmllint', ['--noout', '--schema', XSD, empty], { stdio: 'pipe' })).not.toThrow();
    },
  );
});
