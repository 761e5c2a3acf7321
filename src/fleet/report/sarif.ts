import { createHash } from 'node:crypto';
import type { FleetFinding, FleetReport, FleetServerResult } from '../../model/fleet.js';
import { truncateString } from '../../report/evidence-bounds.js';
import { DEFAULT_SARIF_ARTIFACT, driver, SARIF_SCHEMA, sarifRun, type SarifOptions } from '../../report/sarif.js';
import { outcomeLine } from './rows.js';
import { isUnavailable } from '../../model/fleet.js';

type Json = Record<string, unknown>;

const CATEGORY_ROOT = 'mcp-tools-conformance';
/** The run of the fleet findings' category (`automationDetails.id`). */
export const FLEET_FINDINGS_CATEGORY = `${CATEGORY_ROOT}/fleet-findings/`;

/**
 * Where a server's findings are filed: `--sarif-artifact` when given, else the host file that declares the server when
 * it is a repository-relative path (code scanning needs one), else the single audit's default.
 */
export function serverArtifact(source: string, options: SarifOptions): string {
  if (options.artifact !== undefined) return options.artifact;
  const relative = source.replace(/\\/g, '/');
  return /^(\/|~|[A-Za-z]:)/.test(relative) || relative.split('/').includes('..') || relative === ''
    ? DEFAULT_SARIF_ARTIFACT
    : relative;
}

/**
 * Each server's category for code scanning: `mcp-tools-conformance/server/<name>/`, the name percent-encoded so a
 * slash in it cannot change the hierarchy; a name met again gets `~2`, `~3`… so that no two runs share a category.
 */
export function serverCategories(servers: readonly Pick<FleetServerResult, 'name'>[]): string[] {
  const seen = new Map<string, number>();
  return servers.map(({ name }) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return `${CATEGORY_ROOT}/server/${encodeURIComponent(name)}${n === 1 ? '' : `~${n}`}/`;
  });
}

function fleetProperties(server: FleetServerResult): Json {
  return {
    server: server.name,
    source: server.source,
    fleetTransport: server.transport,
    outcome: server.outcome,
    why: server.why,
    durationMs: server.durationMs,
    ...(server.depth ? { depth: server.depth } : {}),
    ...(server.reportFile !== undefined ? { reportFile: server.reportFile } : {}),
    ...(server.stderr ? { stderr: server.stderr } : {}),
  };
}

/**
 * One server's run: an audited one is the single audit's run (its rules, results, invocation), filed under its host
 * file and named in `automationDetails` and `properties`; one that was not audited is a run without results whose
 * notification says why.
 */
function serverRun(server: FleetServerResult, category: string, report: FleetReport, options: SarifOptions): Json {
  const why = `${server.name}: ${outcomeLine(server)}`;
  const notThrough = isUnavailable(server.outcome) || server.outcome === 'skipped';
  const notification = {
    level: isUnavailable(server.outcome) ? 'error' : 'note',
    message: { text: truncateString(why, 4096) },
  };
  const automationDetails = {
    id: category,
    description: { text: `MCP server ${truncateString(server.name, 200)} (${server.source})` },
  };
  if (server.report !== undefined) {
    const run = sarifRun(server.report, { artifact: serverArtifact(server.source, options) });
    const invocations = run.invocations as Json[];
    const invocation = invocations[0] as Json;
    const notifications = invocation.toolExecutionNotifications as Json[];
    return {
      ...run,
      invocations: [
        {
          ...invocation,
          ...(notThrough
            ? { executionSuccessful: false, toolExecutionNotifications: [notification, ...notifications] }
            : {}),
        },
      ],
      automationDetails,
      properties: { ...(run.properties as Json), ...fleetProperties(server) },
    };
  }
  return {
    tool: driver(report, []),
    invocations: [
      {
        executionSuccessful: server.outcome === 'skipped',
        startTimeUtc: report.startedAt,
        toolExecutionNotifications: [notification],
      },
    ],
    automationDetails,
    results: [],
    properties: fleetProperties(server),
  };
}

function findingFingerprint(finding: FleetFinding): string {
  const key = [finding.id, ...[...finding.servers].sort(), '', ...[...finding.tools].sort()].join('\u0000');
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

/**
 * The findings only a fleet can see: warnings (Security Considerations), one rule per finding kind, filed under each
 * server's host file.
 */
function findingsRun(report: FleetReport, options: SarifOptions): Json {
  const ids = [...new Set(report.findings.map((finding) => finding.id))];
  const rules = ids.map((id) => ({
    id,
    name: id,
    shortDescription: { text: id },
    fullDescription: {
      text:
        `Fleet finding ${id}: seen only across the servers of one fleet (Security Considerations), a warning, ` +
        `never a failure.`,
    },
    defaultConfiguration: { level: 'warning' },
    properties: { area: 'fleet', tags: ['mcp', 'fleet', 'security'] },
  }));
  const sourceOf = new Map(report.servers.map((server) => [server.name, server.source]));
  const results = report.findings.map((finding) => ({
    ruleId: finding.id,
    ruleIndex: ids.indexOf(finding.id),
    level: 'warning',
    kind: 'fail',
    message: {
      text: truncateString(
        [finding.message, `servers: ${finding.servers.join(', ')}`, `tools: ${finding.tools.join(', ')}`].join('\n'),
        16 * 1024,
      ),
    },
    locations: (finding.servers.length > 0 ? finding.servers : ['']).map((name) => ({
      physicalLocation: { artifactLocation: { uri: serverArtifact(sourceOf.get(name) ?? '', options) } },
      logicalLocations: [{ name, kind: 'module' }],
    })),
    partialFingerprints: { 'mcpToolsConformance/v1': findingFingerprint(finding) },
    properties: { status: finding.status, servers: finding.servers, tools: finding.tools },
  }));
  return {
    tool: driver(report, rules),
    invocations: [
      {
        executionSuccessful: true,
        startTimeUtc: report.startedAt,
        endTimeUtc: new Date(Date.parse(report.startedAt) + report.durationMs).toISOString(),
      },
    ],
    automationDetails: { id: FLEET_FINDINGS_CATEGORY, description: { text: 'What only a fleet can see' } },
    results,
    properties: {
      files: report.files,
      summary: report.summary,
      exitCode: report.exitCode,
      ...(report.shard ? { shard: report.shard } : {}),
    },
  };
}

/** The fleet as one SARIF 2.1.0 log: a run per server, in fleet order, then the run of the fleet findings. */
export function fleetSarif(report: FleetReport, options: SarifOptions = {}): Json {
  const categories = serverCategories(report.servers);
  const runs = report.servers.map((server, i) => serverRun(server, categories[i]!, report, options));
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [...runs, findingsRun(report, options)] };
}
