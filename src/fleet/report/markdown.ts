import { fleetHostTable, hostCell } from '../../report/hosts-lines.js';
import type { FleetReport, FleetServerResult } from '../../model/fleet.js';
import { formatDuration } from '../../report/duration.js';
import { findingsTables, markdownCode, markdownInline, plural } from '../../report/markdown.js';
import {
  countText,
  depthText,
  NOT_AUDITED,
  OUTCOME_LABELS,
  outcomeCounts,
  serverSecondsText,
  transportText,
} from './rows.js';

/** GitHub refuses a comment longer than 65,536 characters. */
export const MAX_COMMENT_CHARS = 65_536;
const MAX_WHY_CHARS = 200;

const OUTCOME_MARK: Readonly<Record<FleetServerResult['outcome'], string>> = {
  conformant: '✅',
  warnings: '⚠️',
  failing: '❌',
  'could-not-start': '⛔',
  unreachable: '⛔',
  'needs-secret': '🔑',
  'timed-out': '⏱️',
  'invalid-entry': '🚫',
  skipped: '⏭️',
};

function summaryLine(report: FleetReport): string {
  const counts = outcomeCounts(report).map(
    ({ outcome, count }) => `${OUTCOME_MARK[outcome]} ${count} ${OUTCOME_LABELS[outcome]}`,
  );
  return counts.length === 0 ? 'No servers.' : counts.join(' · ');
}

function serversTable(report: FleetReport): string[] {
  const lines = [
    '| Server | Transport | Revision | Outcome | Fails | Warns | Depth (called/listed) | Seconds | Why |',
    '| --- | --- | --- | --- | ---: | ---: | --- | ---: | --- |',
  ];
  for (const server of report.servers) {
    const cells = [
      markdownInline(server.name, 80),
      transportText(server),
      server.protocolVersion ?? NOT_AUDITED,
      `${OUTCOME_MARK[server.outcome]} ${OUTCOME_LABELS[server.outcome]}`,
      countText(server, 'fail'),
      countText(server, 'warn'),
      markdownInline(depthText(server.depth)),
      serverSecondsText(server),
      markdownInline(server.why, MAX_WHY_CHARS),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

function fleetFindings(report: FleetReport): string[] {
  if (report.findings.length === 0) return [];
  const lines = ['### Fleet findings', '', '| Finding | Servers | Tools | Message |', '| --- | --- | --- | --- |'];
  for (const finding of report.findings) {
    const list = (items: readonly string[]) => items.map((item) => markdownInline(item, 80)).join(', ');
    lines.push(
      `| \`${finding.id}\` | ${list(finding.servers)} | ${list(finding.tools)} | ${markdownInline(finding.message)} |`,
    );
  }
  return [...lines, ''];
}

/**
 * --lock: whether every server matches the fleet lock, which changed and which are gone; --lock-write: what it holds.
 */
function lockLines(report: FleetReport): string[] {
  const lock = report.lock;
  if (!lock) return [];
  const list = (items: readonly string[]) => items.map((item) => markdownInline(item, 80)).join(', ');
  if (lock.mode === 'write') {
    const left = lock.notLocked.length > 0 ? `; not locked (no complete tool listing): ${list(lock.notLocked)}` : '';
    return [
      `Fleet lock ${markdownCode(lock.file)} written: the tools of ${plural(lock.locked.length, 'server')}${left}.`,
      '',
    ];
  }
  if (lock.changed.length + lock.removed.length === 0)
    return [`Fleet lock ${markdownCode(lock.file)}: every server audited matches.`, ''];
  const parts = [
    ...(lock.changed.length > 0 ? [`tools changed on ${list(lock.changed)}`] : []),
    ...(lock.removed.length > 0 ? [`servers gone from the fleet: ${list(lock.removed)}`] : []),
  ];
  return [`**Fleet lock ${markdownCode(lock.file)} changed:** ${parts.join('; ')}.`, ''];
}

/**
 * Each audited server's findings, those with failures first (in fleet order), each server's failures before its
 * warnings.
 */
function findingsByServer(report: FleetReport): string[] {
  const withFindings = report.servers.filter(
    (server) =>
      server.report !== undefined &&
      (server.report.summary.fail > 0 || server.report.summary.warn > 0 || server.report.summary.error > 0),
  );
  const ordered = [
    ...withFindings.filter((s) => s.report!.summary.fail > 0),
    ...withFindings.filter((s) => s.report!.summary.fail === 0),
  ];
  return ordered.flatMap((server) =>
    findingsTables(
      server.report!,
      server.reportFile !== undefined ? { jsonReport: server.reportFile } : {},
      '',
      `${markdownInline(server.name, 80)}: `,
    ),
  );
}

/** Cuts the comment at a line boundary so it fits GitHub's limit, saying how much was left out. */
function bound(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = (dropped: number) =>
    `\n\n…[truncated: ${dropped} more characters; fleet.json and each server's report hold every finding]\n`;
  const room = maxChars - marker(text.length).length;
  const cut = text.lastIndexOf('\n', room);
  const end = cut > 0 ? cut : room;
  return `${text.slice(0, end)}${marker(text.length - end)}`;
}

/** --hosts: per server, the tools each host blocks or degrades (each server's report has the fixes). */
function hostsTable(report: FleetReport): string[] {
  const table = fleetHostTable(report);
  if (!table) return [];
  return [
    '### Host compatibility',
    '',
    `| Server | ${table.hosts.join(' | ')} |`,
    `| --- | ${table.hosts.map(() => '---').join(' | ')} |`,
    ...table.rows.map(
      (row) => `| ${markdownInline(row.server, 80)} | ${table.hosts.map((h) => hostCell(row.cells[h])).join(' | ')} |`,
    ),
    '',
  ];
}

/**
 * The fleet for a PR comment: a headline with the counts per outcome, the table of servers, the fleet findings, then
 * each server's findings (servers with failures first); target text escaped, the whole within GitHub's comment limit.
 */
export function fleetMarkdown(report: FleetReport, maxChars = MAX_COMMENT_CHARS): string {
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.count}` : '';
  const lines = [
    `## MCP tools conformance: fleet of ${plural(report.servers.length, 'server')}`,
    '',
    summaryLine(report),
    '',
    `Files ${report.files.map((file) => markdownCode(file)).join(', ') || 'none'} · ` +
      `${formatDuration(report.durationMs)}${shard} · exit code ${report.exitCode}`,
    '',
    ...serversTable(report),
    '',
    ...lockLines(report),
    ...hostsTable(report),
    ...fleetFindings(report),
    ...findingsByServer(report),
  ];
  return bound(lines.join('\n'), maxChars);
}
