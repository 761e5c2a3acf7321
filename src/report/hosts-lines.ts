import type { HostResult, HostsReport, HostVerdict } from '../model/hosts.js';
import type { Palette } from './color.js';
import { terminalInline } from './text-safety.js';

/** `9 works · 1 degraded · 4 blocked` */
export function hostCounts(host: Pick<HostResult, 'counts'>): string {
  return (['works', 'degraded', 'blocked'] as const).map((v) => `${host.counts[v]} ${v}`).join(' · ');
}

export function serverNameNote(hosts: HostsReport): string {
  const from = { option: '--server-name', 'server-info': "the server's own name", default: 'no name given or reported' }[hosts.serverNameFrom];
  return `as server "${hosts.serverName}" (${from})`;
}

/** Each tool a host does not take as it is, with what the host does and the smallest fix, blocked first. */
export function hostFindingRows(hosts: HostsReport): { host: string; tool: string; verdict: Exclude<HostVerdict, 'works'>; rule: string; message: string; fix: string }[] {
  const rows = hosts.hosts.flatMap((host) =>
    host.tools.flatMap((tool) => tool.findings.map((f) => ({ host: host.host, tool: tool.tool, verdict: f.effect, rule: f.rule, message: f.message, fix: f.fix }))),
  );
  return rows.sort((a, b) => (a.verdict === b.verdict ? 0 : a.verdict === 'blocked' ? -1 : 1));
}

/** The console's Hosts section: a line per host, then every finding (unless quiet) with its fix. */
export function hostsConsoleLines(hosts: HostsReport | undefined, paint: Palette, quiet: boolean): string[] {
  if (!hosts) return [];
  const width = Math.max(...hosts.hosts.map((h) => h.host.length));
  const lines = ['', paint.bold(`Hosts ${terminalInline(serverNameNote(hosts), 200)}${hosts.listingComplete ? '' : ', on the tools of an incomplete listing'}:`)];
  for (const host of hosts.hosts) {
    const failing = hosts.failOnHost.includes(host.host) && host.counts.blocked > 0;
    const counts = host.counts.blocked > 0 ? (failing ? paint.red : paint.yellow)(hostCounts(host)) : host.counts.degraded > 0 ? paint.yellow(hostCounts(host)) : paint.green(hostCounts(host));
    const unsourced = host.notSourced.length > 0 ? paint.dim(`; ${host.notSourced.length} limit(s) not judged, no primary source`) : '';
    lines.push(`  ${host.host.padEnd(width)}  ${counts}  ${paint.dim(host.label)}${failing ? paint.red(' (--fail-on-host)') : ''}${unsourced}`);
  }
  if (quiet) return lines;
  for (const row of hostFindingRows(hosts)) {
    const mark = row.verdict === 'blocked' ? paint.red('blocked ') : paint.yellow('degraded');
    lines.push(`  ${mark} ${row.host.padEnd(width)}  ${terminalInline(row.tool, 80)}: ${terminalInline(row.message, 300)} ${paint.dim(`[${row.rule}]`)}`);
    lines.push(`           ${''.padEnd(width)}  ${paint.dim('fix:')} ${terminalInline(row.fix, 300)}`);
  }
  return lines;
}
