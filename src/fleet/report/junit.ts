import {
  CONFORMANCE_OUTCOMES,
  type FleetFinding,
  type FleetReport,
  type FleetServerResult,
} from '../../model/fleet.js';
import {
  attributeText,
  countAttributes,
  document,
  propertiesElement,
  runSuite,
  seconds,
  SUITES_NAME,
  type JunitOptions,
} from '../../report/junit.js';
import { xmlElement, xmlTextElement } from '../../report/xml.js';
import { depthText, OUTCOME_LABELS, outcomeLine } from './rows.js';
import { isUnavailable } from '../../model/fleet.js';

/** The name of the suite that holds the findings only a fleet can see. */
export const FLEET_FINDINGS_SUITE = 'fleet findings';

interface Counted {
  xml: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function serverProperties(server: FleetServerResult): [string, string][] {
  const properties: [string, string][] = [
    ['server', server.name],
    ['source', server.source],
    ['fleetTransport', server.transport],
    ['outcome', server.outcome],
    ['why', server.why],
  ];
  if (server.depth !== undefined) properties.push(['depth', depthText(server.depth)]);
  if (server.depth?.deeperWith !== undefined) properties.push(['deeperWith', server.depth.deeperWith]);
  if (server.reportFile !== undefined) properties.push(['reportFile', server.reportFile]);
  return properties;
}

/**
 * A server that was not (fully) audited, as one test case saying why: `skipped` for a skipped entry, and for the
 * availability outcomes (could not start, unreachable, needs secret, timed out, invalid entry) unless
 * --fail-on-unavailable makes them count, when they are `error`s; so the JUnit page turns red exactly when the fleet's
 * exit code does. (A conformance outcome comes with a report; were one to come without, it is a failure or a pass
 * saying so.)
 */
function outcomeCase(server: FleetServerResult, failOnUnavailable: boolean): Counted {
  const message = attributeText(outcomeLine(server));
  const detail = [server.why, ...(server.stderr?.length ? ['stderr:', ...server.stderr] : [])].join('\n');
  const kind =
    server.outcome === 'failing'
      ? 'failure'
      : failOnUnavailable && isUnavailable(server.outcome)
        ? 'error'
        : CONFORMANCE_OUTCOMES.includes(server.outcome)
          ? 'pass'
          : 'skipped';
  const children =
    kind === 'failure' || kind === 'error'
      ? [xmlTextElement(kind, { message, type: server.outcome }, detail)]
      : [...(kind === 'skipped' ? [xmlElement('skipped', { message })] : []), xmlTextElement('system-out', {}, detail)];
  const name = `${server.name} › ${OUTCOME_LABELS[server.outcome]}`;
  const xml = xmlElement('testcase', { classname: server.name, name, time: seconds(server.durationMs) }, children);
  return {
    xml,
    tests: 1,
    failures: kind === 'failure' ? 1 : 0,
    errors: kind === 'error' ? 1 : 0,
    skipped: kind === 'skipped' ? 1 : 0,
  };
}

/**
 * One testsuite per server, named for it: an audited server's checks as the single audit writes them (classname
 * `<server>.<area>`), its fleet facts in the suite's properties; one that was not audited, or not to the end, adds a
 * test case for its outcome.
 */
function serverSuite(server: FleetServerResult, report: FleetReport, extended: boolean): Counted {
  // A server whose tools differ from the fleet's --lock is failing without a failed check: its outcome case says so.
  const lockChanged = server.report?.lock?.status === 'changed';
  const notThrough =
    server.report === undefined || isUnavailable(server.outcome) || server.outcome === 'skipped' || lockChanged;
  const extra = notThrough ? outcomeCase(server, report.failOnUnavailable) : undefined;
  if (server.report !== undefined) {
    const counts = countAttributes(server.report.checks);
    const xml = runSuite(server.name, server.report, server.name, extended, {
      properties: serverProperties(server),
      cases: extra ? [extra] : [],
    });
    return {
      xml,
      tests: counts.tests + (extra?.tests ?? 0),
      failures: counts.failures + (extra?.failures ?? 0),
      errors: counts.errors + (extra?.errors ?? 0),
      skipped: counts.skipped + (extra?.skipped ?? 0),
    };
  }
  const case_ = extra!;
  const xml = xmlElement(
    'testsuite',
    {
      name: server.name,
      tests: 1,
      failures: case_.failures,
      errors: case_.errors,
      skipped: case_.skipped,
      time: seconds(server.durationMs),
      timestamp: report.startedAt,
    },
    [propertiesElement(serverProperties(server)), case_.xml],
  );
  return { ...case_, xml };
}

function findingCase(finding: FleetFinding, extended: boolean): string {
  const facts: [string, string][] = [
    ['requirement', finding.id],
    ['status', finding.status],
    ['servers', finding.servers.join(', ')],
    ['tools', finding.tools.join(', ')],
  ];
  const text = `warning: ${finding.message}`;
  const children = extended
    ? [propertiesElement(facts), xmlTextElement('system-out', {}, text)]
    : [xmlTextElement('system-out', {}, `${facts.map(([name, value]) => `${name}: ${value}`).join('\n')}\n\n${text}`)];
  return xmlElement(
    'testcase',
    { classname: 'fleet', name: `${finding.id} › ${finding.servers.join(', ')}`, time: seconds(0) },
    children,
  );
}

/**
 * --lock: the servers the fleet lock holds that no host file declares any more, one failing test case (exit code 1).
 */
function removedCase(removed: readonly string[], file: string): string {
  const message = attributeText(
    `${removed.length} server(s) of the lock ${file} gone from the fleet: ${removed.join(', ')}`,
  );
  return xmlElement('testcase', { classname: 'fleet', name: 'fleet lock › servers gone', time: seconds(0) }, [
    xmlTextElement('failure', { message, type: 'lock' }, removed.join('\n')),
  ]);
}

/**
 * The findings only a fleet can see, one test case each: warnings, so they pass and say so, as single-audit warnings
 * do; and with --lock, servers gone since the lock as a failure.
 */
function findingsSuite(report: FleetReport, extended: boolean): Counted {
  const removed =
    report.lock?.mode === 'compare' && report.lock.removed.length > 0
      ? removedCase(report.lock.removed, report.lock.file)
      : undefined;
  const failures = removed ? 1 : 0;
  const tests = report.findings.length + failures;
  const xml = xmlElement(
    'testsuite',
    {
      name: FLEET_FINDINGS_SUITE,
      tests,
      failures,
      errors: 0,
      skipped: 0,
      time: seconds(0),
      timestamp: report.startedAt,
    },
    [
      propertiesElement([['files', report.files.join(', ')]]),
      ...report.findings.map((finding) => findingCase(finding, extended)),
      ...(removed ? [removed] : []),
    ],
  );
  return { xml, tests, failures, errors: 0, skipped: 0 };
}

/**
 * The fleet as JUnit XML (valid under junit-10.xsd unless `extended`): a testsuite per server, in fleet order, then
 * the suite of fleet findings.
 */
export function fleetJunit(report: FleetReport, options: JunitOptions = {}): string {
  const extended = options.extended ?? false;
  const suites = [
    ...report.servers.map((server) => serverSuite(server, report, extended)),
    findingsSuite(report, extended),
  ];
  const sum = (key: 'tests' | 'failures' | 'errors' | 'skipped') =>
    suites.reduce((total, suite) => total + suite[key], 0);
  const root = xmlElement(
    'testsuites',
    {
      name: `${SUITES_NAME} fleet`,
      tests: sum('tests'),
      failures: sum('failures'),
      errors: sum('errors'),
      ...(extended && { skipped: sum('skipped') }),
      time: seconds(report.durationMs),
    },
    suites.map((suite) => suite.xml),
  );
  return document(root);
}
