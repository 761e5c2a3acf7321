import type { CheckResult } from '../model/check.js';
import { backing } from './backing.js';
import { boundEvidence, truncateString } from './evidence-bounds.js';
import { countByStatus, labelOf } from './statuses.js';
import { fileReporter } from './file-reporter.js';
import type { Reporter } from './types.js';
import { auditedRuns, type RevisionsReport, type RunReport } from '../model/report.js';
import type { Revision } from '../core/revision.js';
import { xmlElement, xmlTextElement } from './xml.js';

export const JUNIT_REPORT_FILE = 'junit.xml';
export const SUITES_NAME = 'mcp-tools-conformance';
const MAX_ATTRIBUTE_CHARS = 1000;
const MAX_BODY_CHARS = 64 * 1024;
const EVIDENCE_LIMITS = { maxStringLength: 8 * 1024, maxItems: 10 };

export interface JunitOptions {
  /**
   * Adds `<properties>` inside each `<testcase>` and `skipped` on `<testsuites>` (read by Jenkins'
   * JUnit plugin and pytest-style consumers). Off by default: junit-10.xsd allows neither, so the
   * same metadata then goes to each test case's `<system-out>`.
   */
  extended?: boolean;
}

export function seconds(ms: number): string {
  return (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);
}

export function attributeText(text: string): string {
  return truncateString(text, MAX_ATTRIBUTE_CHARS);
}

function caseName(check: CheckResult): string {
  const name = `${check.area} › ${check.id} › ${check.title}`;
  return check.tool === undefined ? name : `${name} [${check.tool}]`;
}

function caseProperties(check: CheckResult): [string, string][] {
  const properties: [string, string][] = [
    ['requirement', check.id],
    ['keyword', labelOf(check)],
    ['keywordText', check.keywordText],
    ['specRef', check.specRef],
    ['specUrl', check.specUrl],
  ];
  if (check.quote !== undefined) properties.push(['quote', check.quote]);
  if (check.tool !== undefined) properties.push(['tool', check.tool]);
  if (check.status === 'warn') properties.push(['status', 'warn']);
  return properties;
}

export function propertiesElement(properties: readonly [string, string][]): string {
  return xmlElement(
    'properties',
    {},
    properties.map(([name, value]) => xmlElement('property', { name, value: attributeText(value) })),
  );
}

/** Message, expectation and one compact JSON line per evidence item. */
function detail(check: CheckResult): string {
  const lines = [check.message];
  if (check.expected !== undefined) lines.push(`expected: ${check.expected}`);
  lines.push(`spec: ${backing(check.keywordText)} · ${check.specUrl}`);
  if (check.quote !== undefined) lines.push(`"${check.quote}"`);
  const evidence = boundEvidence(check.evidence, EVIDENCE_LIMITS);
  if (evidence.length > 0) {
    lines.push('evidence:', ...evidence.map((item) => JSON.stringify(item)));
  }
  return truncateString(lines.join('\n'), MAX_BODY_CHARS);
}

function systemOut(check: CheckResult, extended: boolean): string | undefined {
  const parts: string[] = [];
  if (!extended) {
    parts.push(
      caseProperties(check)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n'),
    );
  }
  if (check.status === 'warn') parts.push(`warning: ${detail(check)}`);
  return parts.length === 0 ? undefined : xmlTextElement('system-out', {}, parts.join('\n\n'));
}

function outcomeElement(check: CheckResult): string | undefined {
  const message = attributeText(check.message);
  // A known failure (listed in --baseline) must not turn the CI page red, but stays visible.
  if (check.baselined && check.status === 'fail')
    return xmlElement('skipped', { message: attributeText(`known failure (in the baseline): ${check.message}`) });
  switch (check.status) {
    case 'fail':
      return xmlTextElement('failure', { message, type: labelOf(check) }, detail(check));
    case 'error':
      return xmlTextElement('error', { message, type: 'error' }, detail(check));
    case 'skip':
      return xmlElement('skipped', { message });
    case 'pass':
    case 'warn':
      return undefined;
  }
}

function testcase(check: CheckResult, extended: boolean, classname: string): string {
  const children = [
    extended ? propertiesElement(caseProperties(check)) : undefined,
    outcomeElement(check),
    systemOut(check, extended),
  ].filter((child): child is string => child !== undefined);
  return xmlElement('testcase', { classname, name: caseName(check), time: seconds(check.durationMs) }, children);
}

function runProperties(report: RunReport): [string, string][] {
  const target = report.target.command ?? report.target.url ?? report.target.file;
  const properties: [string, string][] = [
    ['toolVersion', report.tool.version],
    ['transport', report.target.transport],
    ['protocolVersion', report.wire.protocolVersion ?? 'none'],
    ['wireReason', report.wire.reason],
  ];
  if (target !== undefined) properties.push([report.client ? 'client' : 'target', target]);
  if (report.aborted !== undefined) properties.push(['aborted', report.aborted.reason]);
  if (report.cutShort !== undefined) properties.push(['cutShort', report.cutShort.reason]);
  if (report.options.maxRps !== undefined) properties.push(['maxRps', String(report.options.maxRps)]);
  return properties;
}

export function countAttributes(checks: readonly CheckResult[]): {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
} {
  const counts = countByStatus(checks);
  const known = checks.filter((c) => c.baselined && c.status === 'fail').length;
  return { tests: checks.length, failures: counts.fail - known, errors: counts.error, skipped: counts.skip + known };
}

function groupByArea(checks: readonly CheckResult[]): Map<string, CheckResult[]> {
  const areas = new Map<string, CheckResult[]>();
  for (const check of checks) {
    const list = areas.get(check.area) ?? [];
    list.push(check);
    areas.set(check.area, list);
  }
  return areas;
}

function totalSeconds(checks: readonly CheckResult[]): string {
  return seconds(checks.reduce((total, check) => total + check.durationMs, 0));
}

export function document(root: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}

export function renderJunit(report: RunReport, options: JunitOptions = {}): string {
  const extended = options.extended ?? false;
  const suites = [...groupByArea(report.checks)].map(([area, checks]) =>
    xmlElement(
      'testsuite',
      { name: area, ...countAttributes(checks), time: totalSeconds(checks), timestamp: report.startedAt },
      [propertiesElement(runProperties(report)), ...checks.map((check) => testcase(check, extended, area))],
    ),
  );
  const { skipped, ...standardCounts } = countAttributes(report.checks);
  const root = xmlElement(
    'testsuites',
    { name: SUITES_NAME, ...standardCounts, ...(extended && { skipped }), time: seconds(report.durationMs) },
    suites,
  );
  return document(root);
}

/** What a caller adds to a run's suite: properties, and test cases of its own (rendered) with their counts. */
export interface SuiteExtra {
  properties?: readonly [string, string][];
  cases?: readonly { xml: string; failures: number; errors: number; skipped: number }[];
}

/**
 * One run as one testsuite named `name`, its test cases' classname `<classPrefix>.<area>`, the run's metadata in its
 * `<properties>`, and what `extra` adds.
 */
export function runSuite(
  name: string,
  run: RunReport,
  classPrefix: string,
  extended: boolean,
  extra: SuiteExtra = {},
): string {
  const cases = extra.cases ?? [];
  const counts = countAttributes(run.checks);
  const total = (key: 'failures' | 'errors' | 'skipped') => counts[key] + cases.reduce((sum, c) => sum + c[key], 0);
  return xmlElement(
    'testsuite',
    {
      name,
      ...counts,
      tests: counts.tests + cases.length,
      failures: total('failures'),
      errors: total('errors'),
      skipped: total('skipped'),
      time: totalSeconds(run.checks),
      timestamp: run.startedAt,
    },
    [
      propertiesElement([...runProperties(run), ...(extra.properties ?? [])]),
      ...run.checks.map((check) => testcase(check, extended, `${classPrefix}.${check.area}`)),
      ...cases.map((c) => c.xml),
    ],
  );
}

/**
 * A --revisions audit: one testsuite per revision, named for it, its test cases' classname `<revision>.<area>` (so
 * that tools grouping by class keep the revisions apart). A revision the target does not support is a suite of one
 * skipped test case that says what the target answered.
 */
export function renderJunitRevisions(report: RevisionsReport, options: JunitOptions = {}): string {
  const extended = options.extended ?? false;
  const suites = report.revisions.map((entry) => {
    if (entry.status !== 'audited') return notAuditedSuite(entry.revision, entry.status, entry.reason, report);
    return runSuite(entry.revision, entry.run, entry.revision, extended);
  });
  const checks = auditedRuns(report).flatMap(({ run }) => run.checks);
  const notSupported = report.revisions.length - auditedRuns(report).length;
  const { skipped, ...standardCounts } = countAttributes(checks);
  const counts = { ...standardCounts, tests: standardCounts.tests + notSupported };
  const root = xmlElement(
    'testsuites',
    {
      name: SUITES_NAME,
      ...counts,
      ...(extended && { skipped: skipped + notSupported }),
      time: seconds(report.durationMs),
    },
    suites,
  );
  return document(root);
}

function notAuditedSuite(
  revision: Revision,
  status: 'not-supported' | 'not-tried',
  reason: string,
  report: RevisionsReport,
): string {
  const message = attributeText(
    status === 'not-supported'
      ? `revision ${revision} not supported by the target: ${reason}`
      : `revision ${revision} not tried: ${reason}`,
  );
  const properties: [string, string][] = [
    ['toolVersion', report.tool.version],
    ['transport', report.target.transport],
    ['protocolVersion', revision],
    [status === 'not-supported' ? 'notSupported' : 'notTried', reason],
  ];
  const testcase = xmlElement('testcase', { classname: revision, name: `revision ${revision}`, time: seconds(0) }, [
    xmlElement('skipped', { message }),
  ]);
  return xmlElement(
    'testsuite',
    { name: revision, tests: 1, failures: 0, errors: 0, skipped: 1, time: seconds(0), timestamp: report.startedAt },
    [propertiesElement(properties), testcase],
  );
}

export function createJunitReporter(options: JunitOptions = {}): Reporter {
  return fileReporter(
    'junit',
    JUNIT_REPORT_FILE,
    (report) => renderJunit(report, options),
    (report) => renderJunitRevisions(report, options),
  );
}
