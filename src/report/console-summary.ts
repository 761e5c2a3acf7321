import type { Status } from '../model/check.js';
import type { Palette } from './color.js';
import { depthLine } from './depth-line.js';
import { callsChanged, effectsRows, sandboxLine } from './effects-table.js';
import { formatDuration } from './duration.js';
import { KEYWORD_LABEL_WIDTH, KEYWORD_LABELS, STATUSES, emptyStatusCounts, labelOf } from './statuses.js';
import { terminalInline } from './text-safety.js';
import type { BaselineEntry, BaselineSummary } from '../model/baseline.js';
import { describeLockChange } from '../lock/tool-lock.js';
import type { LockComparison } from '../model/lock.js';
import type { RunReport } from '../model/report.js';

const COLUMN = 7;

export function paintStatus(status: Status, text: string, paint: Palette): string {
  const byStatus: Record<Status, (t: string) => string> = {
    pass: paint.green,
    fail: paint.red,
    warn: paint.yellow,
    skip: paint.dim,
    error: paint.magenta,
  };
  return byStatus[status](text);
}

function statusCounts(report: RunReport, paint: Palette): string {
  const total = STATUSES.reduce((sum, status) => sum + report.summary[status], 0);
  const parts = STATUSES.map((status) => paintStatus(status, `${report.summary[status]} ${status}`, paint));
  return `${paint.bold('Summary:')} ${total} check outcome(s): ${parts.join(', ')}`;
}

/** Outcomes by keyword label and status: a row per label, every label listed. */
function keywordTable(report: RunReport): string[] {
  const header = ''.padEnd(KEYWORD_LABEL_WIDTH) + STATUSES.map((status) => status.padStart(COLUMN)).join('');
  const rows = KEYWORD_LABELS.map((label) => {
    const counts = emptyStatusCounts();
    for (const check of report.checks) if (labelOf(check) === label) counts[check.status] += 1;
    return (
      label.padEnd(KEYWORD_LABEL_WIDTH) + STATUSES.map((status) => String(counts[status]).padStart(COLUMN)).join('')
    );
  });
  return [header, ...rows].map((line) => `  ${line}`);
}

function runDetails(report: RunReport, writtenPaths: readonly string[]): string[] {
  const lines = [`Wire: ${report.wire.protocolVersion ?? 'none'} (${terminalInline(report.wire.reason)})`];
  if (report.target.transport === 'http+sse') {
    lines.push(
      'Transport: HTTP+SSE (2024-11-05, deprecated): the URL refused the initialize POST, and its GET stream ' +
        'named an endpoint; Streamable HTTP checks do not apply',
    );
  }
  if (report.server?.name !== undefined || report.server?.version !== undefined) {
    const identity = [report.server.name, report.server.version].filter((part) => part !== undefined).join(' ');
    lines.push(`Server: ${terminalInline(identity, 200)}`);
  }
  if (report.client !== undefined) lines.push(`Client: ${clientLine(report.client)}`);
  if (report.client?.notCalled !== undefined)
    lines.push(
      `Not called: ${terminalInline(report.client.notCalled.join(', '), 500)} (listed to the client; no ` +
        `tools/call for them reached the scripted server)`,
    );
  if (report.aborted !== undefined) {
    const during =
      report.aborted.duringCheck === undefined ? '' : ` (during ${terminalInline(report.aborted.duringCheck)})`;
    lines.push(`Aborted: ${terminalInline(report.aborted.reason)}${during}`);
  }
  if (report.cutShort !== undefined) lines.push(`Cut short: ${terminalInline(report.cutShort.reason)}`);
  if (report.baseline !== undefined) lines.push(...baselineLines(report.baseline));
  if (report.lock !== undefined) lines.push(lockLine(report.lock));
  if (report.property !== undefined) {
    const replay = report.property.replay === undefined ? '' : `, replaying ${terminalInline(report.property.replay)}`;
    lines.push(
      `Property-based checks: seed ${report.property.seed}, ${report.property.runs} case(s) per tool and ` +
        `property${replay} (same seed, same cases)`,
    );
  }
  if (report.depth !== undefined) lines.push(`Depth: ${depthLine(report.depth)}`);
  if (report.sandbox !== undefined)
    lines.push(`Sandbox: ${terminalInline(sandboxLine(report.sandbox), 500)}`, ...effectsLines(report));
  const cap = report.options.maxRps === undefined ? '' : ` (capped at ${report.options.maxRps}/s by --max-rps)`;
  lines.push(`Duration: ${formatDuration(report.durationMs)}, ${report.stats.requests} request(s)${cap}`);
  const hint = connectionsHint(report);
  if (hint) lines.push(hint);
  if (writtenPaths.length > 0) lines.push(`Reports: ${writtenPaths.map((path) => terminalInline(path)).join(', ')}`);
  return lines;
}

/** "What each tool changed" in the sandbox: a line per tool called. */
function effectsLines(report: RunReport): string[] {
  const rows = effectsRows(report);
  if (rows.length === 0) return [];
  return [
    'What each tool changed:',
    ...rows.map(
      (row) => `  ${terminalInline(row.tool, 60)}: ${callsChanged(row)}: ${terminalInline(row.changes, 300)}`,
    ),
  ];
}

/** Client mode: who the client said it was, how it ended, what it sent. */
export function clientLine(client: NonNullable<RunReport['client']>): string {
  const identity = [client.name, client.version].filter((part) => part !== undefined).join(' ') || 'no clientInfo';
  const exit = client.exit;
  const ended =
    exit.kind === 'timed-out'
      ? 'killed at --max-duration'
      : exit.kind === 'not-started'
        ? 'not started'
        : exit.signal
          ? `ended by ${exit.signal}`
          : `exited ${exit.code}`;
  return (
    `${terminalInline(identity, 200)} (${ended}; ${client.messages} message(s) to the scripted server` +
    `${client.messagesNotKept ? ` (and ${client.messagesNotKept} more, not kept)` : ''}, ${client.driverLines} ` +
    `driver line(s)` +
    `${
      client.stdoutNoise
        ? `, and stdout lines that are not driver lines (first: ` +
          `${terminalInline(JSON.stringify(client.stdoutNoise[0]!.slice(0, 60)))})`
        : ''
    }` +
    `; scenarios ${client.scenarios.join(', ')})`
  );
}

/**
 * Over one HTTP connection the generated calls go one at a time: when a search stopped early because its answers were
 * slow (or its budget share ran out), say how to overlap them. A mere timeout is no reason: more connections would not
 * help.
 */
function connectionsHint(report: RunReport): string | undefined {
  if (
    report.target.transport !== 'http' ||
    report.options.httpConnections !== undefined ||
    report.options.maxRps !== undefined
  )
    return undefined;
  const stopped = report.checks
    .filter((c) => c.area === 'property')
    .flatMap((c) =>
      c.evidence.flatMap((e) =>
        'note' in e && Array.isArray(e.data) ? (e.data as { tool?: unknown; stoppedEarly?: unknown }[]) : [],
      ),
    )
    .filter((t) => typeof t.stoppedEarly === 'string' && typeof t.tool === 'string');
  if (stopped.length === 0) return undefined;
  const tools = [...new Set(stopped.map((t) => terminalInline(String(t.tool), 60)))];
  return (
    `Hint: the property search of ${tools.slice(0, 3).join(', ')}${tools.length > 3 ? ', …' : ''} stopped ` +
    `early on slow answers, its calls one at a time over one HTTP connection; --http-connections 4 lets them ` +
    `overlap`
  );
}

function entryName(entry: BaselineEntry): string {
  return terminalInline(entry.tool === undefined ? entry.check : `${entry.check} [${entry.tool}]`);
}

function baselineLines(baseline: BaselineSummary): string[] {
  const lines = [
    `Baseline ${terminalInline(baseline.file)}: ${baseline.known} known, ${baseline.new} new, ` +
      `${baseline.stale.length} stale, ${baseline.unconfirmed.length} unconfirmed`,
  ];
  if (baseline.stale.length > 0)
    lines.push(`  stale (now passing; remove from the baseline): ${baseline.stale.map(entryName).join(', ')}`);
  return lines;
}

function lockLine(lock: LockComparison): string {
  if (lock.status === 'match') return `Tool lock ${terminalInline(lock.file)}: unchanged`;
  return (
    `Tool lock ${terminalInline(lock.file)}: CHANGED ${terminalInline(describeLockChange(lock), 2000)} (+ ` +
    `added, - removed, ~ changed); rerun "lock --write" if intended`
  );
}

/**
 * --revisions: what one revision's run ends with on the console (the keyword table and the paths come once, at the
 * end).
 */
export function runSummaryLines(report: RunReport, paint: Palette): string[] {
  const aborted = report.aborted === undefined ? [] : [paint.red(paint.bold('Audit aborted.'))];
  return [...aborted, statusCounts(report, paint), ...runDetails(report, [])];
}

export function summaryLines(report: RunReport, paint: Palette, writtenPaths: readonly string[]): string[] {
  const aborted = report.aborted === undefined ? [] : [paint.red(paint.bold('Audit aborted.'))];
  if (report.aborted === undefined && report.cutShort !== undefined)
    aborted.push(paint.yellow(paint.bold('Audit cut short by --max-duration.')));
  return [
    '',
    ...aborted,
    statusCounts(report, paint),
    'By keyword:',
    ...keywordTable(report),
    ...runDetails(report, writtenPaths),
  ];
}
