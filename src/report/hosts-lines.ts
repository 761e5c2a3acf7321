import type { FleetReport } from '../model/fleet.js';
import { HOST_NAMES, type HostName, type HostResult, type HostsReport, type HostVerdict } from '../model/hosts.js';
import type { Palette } from './color.js';
import { terminalInline } from './text-safety.js';

/** `9 works · 1 degraded · 4 blocked` */
export function hostCounts(host: Pick<HostResult, 'counts'>): string {
  return (['works', 'degraded', 'blocked'] as const).map((v) => `${host.counts[v]} ${v}`).join(' · ');
}

export function serverNameNote(hosts: HostsReport): string {
  const from = {
    option: '--server-name',
    'server-info': "the server's own name",
    default: 'no name given or reported',
  }[hosts.serverNameFrom];
  return `as server "${hosts.serverName}" (${from})`;
}

/** Each tool a host does not take as it is, with what the host does and the smallest fix, blocked first. */
export function hostFindingRows(hosts: HostsReport): {
  host: string;
  tool: string;
  verdict: Exclude<HostVerdict, 'works'>;
  rule: string;
  message: string;
  fix: string;
}[] {
  const rows = hosts.hosts.flatMap((host) =>
    host.tools.flatMap((tool) =>
      tool.findings.map((f) => ({
        host: host.host,
        tool: tool.tool,
        verdict: f.effect,
        rule: f.rule,
        message: f.message,
        fix: f.fix,
      })),
    ),
  );
  return rows.sort((a, b) => (a.verdict === b.verdict ? 0 : a.verdict === 'blocked' ? -1 : 1));
}

/** The console's Hosts section: a line per host, then every finding (unless quiet) with its fix. */
export function hostsConsoleLines(hosts: HostsReport | undefined, paint: Palette, quiet: boolean): string[] {
  if (!hosts) return [];
  const width = Math.max(...hosts.hosts.map((h) => h.host.length));
  const lines = [
    '',
    paint.bold(
      `Hosts ${terminalInline(serverNameNote(hosts), 200)}` +
        `${hosts.listingComplete ? '' : ', on the tools of an incomplete listing'}:`,
    ),
  ];
  for (const host of hosts.hosts) {
    const failing = hosts.failOnHost.includes(host.host) && host.counts.blocked > 0;
    const counts =
      host.counts.blocked > 0
        ? (failing ? paint.red : paint.yellow)(hostCounts(host))
        : host.counts.degraded > 0
          ? paint.yellow(hostCounts(host))
          : paint.green(hostCounts(host));
    const unsourced =
      host.notSourced.length > 0 ? paint.dim(`; ${host.notSourced.length} limit(s) not judged, no primary source`) : '';
    lines.push(
      `  ${host.host.padEnd(width)}  ${counts}  ${paint.dim(host.label)}` +
        `${failing ? paint.red(' (--fail-on-host)') : ''}${unsourced}`,
    );
  }
  if (quiet) return lines;
  for (const row of hostFindingRows(hosts)) {
    const mark = row.verdict === 'blocked' ? paint.red('blocked ') : paint.yellow('degraded');
    lines.push(
      `  ${mark} ${row.host.padEnd(width)}  ${terminalInline(row.tool, 80)}: ` +
        `${terminalInline(row.message, 300)} ${paint.dim(`[${row.rule}]`)}`,
    );
    lines.push(`           ${''.padEnd(width)}  ${paint.dim('fix:')} ${terminalInline(row.fix, 300)}`);
  }
  const rewritten = hosts.hosts.flatMap((h) =>
    h.tools.filter((t) => t.rewrittenSchema !== undefined).map(() => h.host),
  );
  if (rewritten.length > 0) {
    lines.push(
      paint.dim(
        `  ${rewritten.length} inputSchema(s) rewritten for ${[...new Set(rewritten)].join(', ')} strict mode: ` +
          `rewrittenSchema in report.json's hosts (and in summary.md, report.html)`,
      ),
    );
  }
  return lines;
}

/** A fleet's hosts table: the hosts judged (in any server's report), and per audited server its count per host. */
export function fleetHostTable(
  report: FleetReport,
):
  | { hosts: HostName[]; rows: { server: string; cells: Partial<Record<HostName, HostResult['counts']>> }[] }
  | undefined {
  const judged = report.servers.filter((s) => s.report?.hosts);
  if (judged.length === 0) return undefined;
  const hosts = HOST_NAMES.filter((host) => judged.some((s) => s.report!.hosts!.hosts.some((h) => h.host === host)));
  const rows = judged.map((s) => ({
    server: s.name,
    cells: Object.fromEntries(s.report!.hosts!.hosts.map((h) => [h.host, h.counts])),
  }));
  return { hosts, rows };
}

/** `2 blocked · 1 degraded`, or `works` when a host takes every tool as it is. */
export function hostCell(counts: HostResult['counts'] | undefined): string {
  if (!counts) return '–';
  const parts = [
    ...(counts.blocked > 0 ? [`${counts.blocked} blocked`] : []),
    ...(counts.degraded > 0 ? [`${counts.degraded} degraded`] : []),
  ];
  return parts.length === 0 ? 'works' : parts.join(' · ');
}

export function fleetHostsConsoleLines(report: FleetReport, paint: Palette): string[] {
  const table = fleetHostTable(report);
  if (!table) return [];
  const width = Math.min(40, Math.max(6, ...table.rows.map((r) => r.server.length)));
  const cellWidth =
    2 +
    Math.max(
      ...table.hosts.map((h) => h.length),
      ...table.rows.flatMap((r) => table.hosts.map((h) => hostCell(r.cells[h]).length)),
    );
  const lines = [
    '',
    paint.bold("Hosts (tools each host blocks or degrades; each server's report.json has the fixes):"),
    `  ${''.padEnd(width)}  ${table.hosts.map((h) => h.padEnd(cellWidth)).join('')}`,
  ];
  for (const row of table.rows) {
    const cells = table.hosts.map((h) => {
      const text = hostCell(row.cells[h]).padEnd(cellWidth);
      return (row.cells[h]?.blocked ?? 0) > 0
        ? paint.red(text)
        : (row.cells[h]?.degraded ?? 0) > 0
          ? paint.yellow(text)
          : text;
    });
    lines.push(`  ${terminalInline(row.server, width).padEnd(width)}  ${cells.join('')}`);
  }
  return lines;
}
