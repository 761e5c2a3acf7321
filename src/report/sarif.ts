import { createHash } from 'node:crypto';
import type { CheckResult, KeywordLabel } from '../model/check.js';
import { specRevision } from '../spec-links.js';
import { backing } from './backing.js';
import { boundEvidence, truncateString } from './evidence-bounds.js';
import { labelOf } from './statuses.js';
import { fileReporter } from './file-reporter.js';
import type { Reporter } from './types.js';
import type { RevisionsReport, RunReport } from '../model/report.js';
import type { Revision } from '../core/revision.js';
import { hostResults, hostRules } from './sarif-hosts.js';

export const SARIF_REPORT_FILE = 'report.sarif';
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://www.npmjs.com/package/mcp-tools-conformance';
const EVIDENCE_LIMITS = { maxStringLength: 8 * 1024, maxItems: 10, maxArrayLength: 200, maxDepth: 32 };
/** Where code scanning files a finding when the run names no repository file (it needs a repository-relative path). */
export const DEFAULT_SARIF_ARTIFACT = 'mcp-server';

/** A rule's default level by its label: those that can fail are errors, descriptive text warns as a SHOULD does. */
const LEVEL: Record<KeywordLabel, 'error' | 'warning' | 'note'> = {
  MUST: 'error',
  SCHEMA: 'error',
  SHOULD: 'warning',
  MAY: 'note',
  DESCRIPTIVE: 'warning',
};

export interface SarifOptions {
  /** Repository-relative path each finding is filed under (code scanning requires one location per result). */
  artifact?: string;
}

type Json = Record<string, unknown>;

const sentence = (check: CheckResult) => (check.quote === undefined ? '' : ` The spec: "${check.quote}"`);

function rules(report: RunReport): { list: Json[]; index: Map<string, number> } {
  const revision = specRevision(report.wire.protocolVersion);
  const index = new Map<string, number>();
  const list: Json[] = [];
  for (const check of report.checks) {
    if (index.has(check.id)) continue;
    index.set(check.id, list.length);
    list.push({
      id: check.id,
      name: check.id,
      shortDescription: { text: check.title },
      fullDescription: { text: `${labelOf(check)}: ${check.title}` },
      helpUri: check.specUrl,
      help: {
        text:
          `Requirement ${check.id} (${backing(check.keywordText)}) of MCP ${revision}, ${check.specRef}: ` +
          `${check.title}.${sentence(check)} See ${check.specUrl}`,
        markdown:
          `**${labelOf(check)}** — ${check.title}\n\nRequirement \`${check.id}\`, [${check.specRef}](` +
          `${check.specUrl}) of MCP ${revision}.${sentence(check)}`,
      },
      defaultConfiguration: { level: LEVEL[labelOf(check)] },
      properties: {
        keyword: labelOf(check),
        keywordText: check.keywordText,
        area: check.area,
        tags: ['mcp', check.area, labelOf(check)],
      },
    });
  }
  return { list, index };
}

function messageText(check: CheckResult): string {
  const lines = [check.message];
  if (check.tool !== undefined) lines.push(`tool: ${check.tool}`);
  if (check.expected !== undefined) lines.push(`expected: ${check.expected}`);
  if (check.replay !== undefined) lines.push(`replay: ${check.replay}`);
  return truncateString(lines.join('\n'), 16 * 1024);
}

function fingerprint(check: CheckResult): string {
  return createHash('sha256')
    .update(`${check.id}\u0000${check.tool ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

function result(check: CheckResult, ruleIndex: number, artifact: string, hasBaseline: boolean): Json {
  return {
    ruleId: check.id,
    ruleIndex,
    level: check.status === 'fail' ? 'error' : 'warning',
    kind: 'fail',
    message: { text: messageText(check) },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: artifact } },
        logicalLocations: [
          check.tool !== undefined ? { name: check.tool, kind: 'function' } : { name: check.area, kind: 'module' },
        ],
      },
    ],
    partialFingerprints: { 'mcpToolsConformance/v1': fingerprint(check) },
    ...(check.baselined !== undefined || hasBaseline ? { baselineState: check.baselined ? 'unchanged' : 'new' } : {}),
    properties: {
      status: check.status,
      keyword: labelOf(check),
      keywordText: check.keywordText,
      ...(check.tool !== undefined ? { tool: check.tool } : {}),
      evidence: boundEvidence(check.evidence, EVIDENCE_LIMITS),
    },
  };
}

/** One SARIF run for one audit run: its own rules (quoting the revision judged), results and invocation. */
export function sarifRun(report: RunReport, options: SarifOptions): Json {
  const artifact = options.artifact ?? DEFAULT_SARIF_ARTIFACT;
  const { list, index } = rules(report);
  const findings = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
  const ourErrors = report.checks.filter((c) => c.status === 'error');
  const endTime = new Date(Date.parse(report.startedAt) + report.durationMs).toISOString();
  return {
    tool: driver(report, [...list, ...hostRules(report)]),
    invocations: [
      {
        executionSuccessful: report.aborted === undefined && ourErrors.length === 0,
        startTimeUtc: report.startedAt,
        endTimeUtc: endTime,
        toolExecutionNotifications: [
          ...(report.aborted ? [{ level: 'error', message: { text: report.aborted.reason } }] : []),
          ...ourErrors.map((c) => ({
            level: 'error',
            message: { text: truncateString(`${c.id}: ${c.message}`, 4096) },
            descriptor: { id: c.id },
          })),
        ],
      },
    ],
    automationDetails: automationDetails(report.wire.protocolVersion),
    results: [
      ...findings.map((check) => result(check, index.get(check.id)!, artifact, report.baseline !== undefined)),
      ...hostResults(report, list.length, artifact),
    ],
    properties: {
      target: report.target,
      wire: report.wire,
      ...(report.server ? { server: report.server } : {}),
      ...(report.client ? { client: report.client } : {}),
      summary: report.summary,
      ...(report.baseline ? { baseline: report.baseline } : {}),
      ...(report.lock ? { lock: report.lock } : {}),
    },
  };
}

export function driver(report: Pick<RunReport, 'tool'>, rules: Json[]): Json {
  return { driver: { name: report.tool.name, version: report.tool.version, informationUri: INFORMATION_URI, rules } };
}

/** A run's category for code scanning: one per revision, so that the revisions' findings never close each other's. */
function automationDetails(revision: Revision | null): Json {
  return { id: `mcp-tools-conformance/${revision ?? 'unknown'}/` };
}

export function renderSarif(report: RunReport, options: SarifOptions = {}): Json {
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [sarifRun(report, options)] };
}

/**
 * A --revisions audit: one run per revision. A revision the target does not support is a run without results whose
 * notification says what the target answered.
 */
export function renderSarifRevisions(report: RevisionsReport, options: SarifOptions = {}): Json {
  const runs = report.revisions.map((entry) => {
    if (entry.status === 'audited') return sarifRun(entry.run, options);
    const text =
      entry.status === 'not-supported'
        ? `revision ${entry.revision} not supported by the target: ${entry.reason}`
        : `revision ${entry.revision} not tried: ${entry.reason}`;
    return {
      tool: driver(report, []),
      invocations: [
        {
          executionSuccessful: true,
          startTimeUtc: report.startedAt,
          toolExecutionNotifications: [{ level: 'note', message: { text } }],
        },
      ],
      automationDetails: automationDetails(entry.revision),
      results: [],
      properties: { target: report.target, revision: entry.revision, notSupported: entry.reason },
    };
  });
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs };
}

const toText = (sarif: Json) => `${JSON.stringify(sarif, null, 2)}\n`;

export function createSarifReporter(options: SarifOptions = {}): Reporter {
  return fileReporter(
    'sarif',
    SARIF_REPORT_FILE,
    (report) => toText(renderSarif(report, options)),
    (report) => toText(renderSarifRevisions(report, options)),
  );
}
