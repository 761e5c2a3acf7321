import type { CheckResult } from '../../model/check.js';
import type { AuditDepth, FleetOutcome, FleetReport, FleetServerResult } from '../../model/fleet.js';
import type { Paint, Palette } from '../../report/color.js';
import { formatDuration } from '../../report/duration.js';
import { OUTCOME_LABELS, transportText, wasAudited } from './rows.js';
import { OUTCOME_ORDER } from '../../model/fleet.js';
import { fleetHostsConsoleLines } from '../../report/hosts-lines.js';
import { terminalInline } from '../../report/text-safety.js';

/** Findings listed per server before the rest is counted. */
const FINDINGS_PER_SERVER = 10;
const NAME_WIDTH = 32;
/** The first lines of a server's stderr shown under its why; fleet.json keeps what the audit kept. */
const STDERR_SHOWN = 3;

/** Green conformant, red failing, yellow warnings, dim skipped, magenta for a server that could not be audited. */
function outcomePaint(outcome: FleetOutcome, paint: Palette): Paint {
  if (outcome === 'conformant') return paint.green;
  if (outcome === 'failing') return paint.red;
  if (outcome === 'warnings') return paint.yellow;
  if (outcome === 'skipped') return paint.dim;
  return paint.magenta;
}

export function outcomeLabel(outcome: FleetOutcome, paint: Palette): string {
  return outcomePaint(outcome, paint)(OUTCOME_LABELS[outcome]);
}

/**
 * `2/5, 3 skipped`: the tools called of those listed, and the checks skipped for want of one (the Depth section says it
 * in words).
 */
function depthCell(depth: AuditDepth | undefined): string {
  if (!depth) return '-';
  const skipped = depth.skippedForNoCallableTool > 0 ? `, ${depth.skippedForNoCallableTool} skipped` : '';
  return `${depth.toolsCalled}/${depth.toolsListed}${skipped}`;
}

/**
 * The fleet on the console: a table (server, transport, revision agreed, outcome, fails, warns, depth, time), the
 * findings grouped by server, what only the fleet sees, one line of why for every server that is not conformant, the
 * servers whose checks skipped for want of a tool they may call, and the totals. Servers of other
 * shards are counted, not listed. Every name and message is the target's or the file's: made terminal-safe.
 */
export function fleetConsoleLines(report: FleetReport, paint: Palette, writtenPaths: readonly string[] = []): string[] {
  const shown = report.servers.filter((s) => !isOtherShard(s));
  const rows = shown.map((s) => [
    terminalInline(s.name, NAME_WIDTH),
    transportText(s),
    s.protocolVersion ?? '-',
    OUTCOME_LABELS[s.outcome],
    wasAudited(s) ? String(s.summary!.fail) : '-',
    wasAudited(s) ? String(s.summary!.warn) : '-',
    depthCell(s.depth),
    s.durationMs > 0 ? formatDuration(s.durationMs) : '-',
  ]);
  const header = ['Server', 'Transport', 'Revision', 'Outcome', 'Fails', 'Warns', 'Depth', 'Time'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => [...r[c]!].length)));
  const line = (cells: string[], paintCell: (text: string, column: number) => string = (t) => t) =>
    cells
      .map((cell, c) => paintCell(cell + ' '.repeat(widths[c]! - [...cell].length), c))
      .join('  ')
      .trimEnd();
  const lines = [
    paint.bold(line(header)),
    ...rows.map((row, i) => line(row, (text, c) => (c === 3 ? outcomePaint(shown[i]!.outcome, paint)(text) : text))),
  ];
  const otherShards = report.servers.length - shown.length;
  if (otherShards > 0)
    lines.push(
      paint.dim(
        `(${otherShards} server${otherShards === 1 ? '' : 's'} in other shards than ${report.shard!.index}/` +
          `${report.shard!.count})`,
      ),
    );

  const findings = shown.filter((s) => s.report && s.report.checks.some(isFinding));
  if (findings.length > 0) {
    lines.push('', paint.bold('Findings'));
    for (const server of findings) {
      const found = server.report!.checks.filter(isFinding);
      lines.push(`  ${paint.bold(terminalInline(server.name, NAME_WIDTH))}`);
      for (const check of found.slice(0, FINDINGS_PER_SERVER)) lines.push(`    ${findingLine(check, paint)}`);
      if (found.length > FINDINGS_PER_SERVER)
        lines.push(
          paint.dim(`    … ${found.length - FINDINGS_PER_SERVER} more in ${server.reportFile ?? 'its report'}`),
        );
    }
  }

  if (report.findings.length > 0) {
    lines.push('', paint.bold('Fleet findings'));
    for (const finding of report.findings)
      lines.push(`  ${paint.yellow('WARN')} ${finding.id}: ${terminalInline(finding.message)}`);
  }

  const explained = shown.filter((s) => s.outcome !== 'conformant');
  if (explained.length > 0) {
    lines.push('', paint.bold('Why'));
    for (const server of explained) {
      lines.push(
        `  ${terminalInline(server.name, NAME_WIDTH)}: ${outcomeLabel(server.outcome, paint)}: ` +
          `${terminalInline(server.why)}`,
      );
      for (const text of (server.stderr ?? []).slice(0, STDERR_SHOWN))
        lines.push(paint.dim(`    stderr: ${terminalInline(text)}`));
    }
  }

  // Checks that skipped for want of a tool the safety rules let us call: easy to miss in a table, so named here.
  const shallow = shown.filter((s) => (s.depth?.skippedForNoCallableTool ?? 0) > 0);
  if (shallow.length > 0) {
    lines.push('', paint.bold('Depth'));
    for (const server of shallow) {
      const depth = server.depth!;
      const deeper = depth.deeperWith ? `; deeper with ${terminalInline(depth.deeperWith)}` : '';
      lines.push(
        `  ${terminalInline(server.name, NAME_WIDTH)}: ${depth.toolsCalled} of ${depth.toolsListed} tools ` +
          `called, ${depth.skippedForNoCallableTool} check(s) skipped for want of a tool it may call${deeper}`,
      );
    }
  }

  if (report.sandboxed)
    lines.push(
      '',
      paint.bold('Sandbox'),
      ...shown.map((server) => `  ${terminalInline(server.name, NAME_WIDTH)}: ${sandboxNote(server)}`),
    );

  if (report.lock) lines.push('', ...lockLines(report.lock, paint));
  lines.push(...fleetHostsConsoleLines(report, paint));

  const counts = OUTCOME_ORDER.filter((o) => report.summary[o] > 0).map(
    (o) => `${report.summary[o]} ${OUTCOME_LABELS[o]}`,
  );
  lines.push(
    '',
    `${paint.bold('Fleet:')} ${report.servers.length} server${report.servers.length === 1 ? '' : 's'}: ` +
      `${counts.join(', ')} in ${formatDuration(report.durationMs)} (exit ${report.exitCode})`,
  );
  for (const path of writtenPaths) lines.push(paint.dim(`Report: ${path}`));
  return lines;
}

/** --lock: the servers whose tools changed (their why says how) and those gone; --lock-write: what the lock holds. */
function lockLines(lock: NonNullable<FleetReport['lock']>, paint: Palette): string[] {
  const names = (list: string[]) => list.map((n) => terminalInline(n, NAME_WIDTH)).join(', ');
  const file = terminalInline(lock.file);
  if (lock.mode === 'write') {
    const lines = [
      `${paint.bold('Lock:')} wrote ${file}: the tools of ${lock.locked.length} server` +
        `${lock.locked.length === 1 ? '' : 's'}`,
    ];
    if (lock.notLocked.length > 0)
      lines.push(`  ${paint.magenta('not locked')} (no complete tool listing): ${names(lock.notLocked)}`);
    return lines;
  }
  if (lock.changed.length + lock.removed.length === 0)
    return [`${paint.bold('Lock:')} every server audited matches ${file}`];
  const lines = [`${paint.bold('Lock:')} ${paint.red('changed')} since ${file}`];
  if (lock.changed.length > 0) lines.push(`  tools changed: ${names(lock.changed)}`);
  if (lock.removed.length > 0) lines.push(`  servers gone from the fleet: ${names(lock.removed)}`);
  return lines;
}

/** A fail, warning or error of a server's audit. */
function isFinding(check: CheckResult): boolean {
  return check.status === 'fail' || check.status === 'warn' || check.status === 'error';
}

function findingLine(check: CheckResult, paint: Palette): string {
  const badge =
    check.status === 'fail'
      ? paint.red('FAIL')
      : check.status === 'warn'
        ? paint.yellow('WARN')
        : paint.magenta('ERROR');
  const tool = check.tool !== undefined ? ` [${terminalInline(check.tool, 60)}]` : '';
  return `${badge} ${check.id}${tool}: ${terminalInline(check.message, 200)}`;
}

function isOtherShard(server: FleetServerResult): boolean {
  return server.outcome === 'skipped' && server.why.startsWith('in another shard');
}

/**
 * In a sandboxed fleet: whether this server ran sandboxed, and what its tools changed; one reached by URL kept safe
 * mode.
 */
function sandboxNote(server: FleetServerResult): string {
  if (server.transport !== 'stdio') return 'reached by URL: not sandboxed, safe mode (read-only tools only)';
  const effects = Object.values(server.report?.effects ?? {});
  if (!server.report?.sandbox) return 'not audited in its sandbox';
  const calls = effects.reduce((n, e) => n + e.calls, 0);
  const changed = effects.reduce((n, e) => n + e.callsWithChanges, 0);
  return (
    `sandboxed: ${server.depth?.toolsCalled ?? 0} of ${server.depth?.toolsListed ?? 0} tools called; ${changed}` +
    ` of ${calls} calls changed files (thrown away)`
  );
}
