import type { HostsReport } from '../model/hosts.js';
import { hostCounts, hostFindingRows, serverNameNote } from './hosts-lines.js';
import { markdownCode, markdownInline } from './markdown-text.js';

/** Rows of the findings table shown at most; report.json has them all. */
const MAX_ROWS = 200;

/**
 * The Markdown section of --hosts: a row per host, then each blocked or degraded tool with its fix, then the rewrites.
 */
export function hostsMarkdown(hosts: HostsReport | undefined): string[] {
  if (!hosts) return [];
  const lines = [
    '### Host compatibility',
    '',
    `${markdownInline(serverNameNote(hosts), 300)}` +
      `${hosts.listingComplete ? '' : ', on the tools of an incomplete listing'}. Not conformance: a blocked ` +
      `tool fails the run only for the hosts of \`--fail-on-host\`` +
      `${hosts.failOnHost.length > 0 ? ` (${hosts.failOnHost.join(', ')})` : ''}.`,
    '',
    '| Host | Tools | Profile | Not judged (no primary source) |',
    '| --- | --- | --- | ---: |',
    ...hosts.hosts.map(
      (h) => `| ${h.host} | ${hostCounts(h)} | ${markdownInline(h.label, 200)} | ${h.notSourced.length} |`,
    ),
    '',
  ];
  const rows = hostFindingRows(hosts);
  if (rows.length > 0) {
    lines.push(
      '| Host | Tool | Verdict | What the host does | Smallest fix | Rule |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const row of rows.slice(0, MAX_ROWS)) {
      lines.push(
        `| ${row.host} | ${markdownCode(row.tool, 80)} | ` +
          `${row.verdict === 'blocked' ? '⛔ blocked' : '⚠️ degraded'} | ${markdownInline(row.message, 400)} | ` +
          `${markdownInline(row.fix, 300)} | \`${row.rule}\` |`,
      );
    }
    if (rows.length > MAX_ROWS) lines.push('', `${rows.length - MAX_ROWS} more in report.json.`);
    lines.push('');
  }
  const rewrites = hosts.hosts.flatMap((h) =>
    h.tools
      .filter((t) => t.rewrittenSchema !== undefined)
      .map((t) => ({ host: h.host, tool: t.tool, schema: t.rewrittenSchema })),
  );
  for (const rewrite of rewrites.slice(0, 20)) {
    lines.push(
      `<details><summary>${rewrite.host}: ${markdownInline(rewrite.tool, 80)}, inputSchema rewritten for ` +
        `strict mode</summary>`,
      '',
      '```json',
      JSON.stringify(rewrite.schema, null, 2).replaceAll('```', '` ` `'),
      '```',
      '',
      '</details>',
      '',
    );
  }
  return lines;
}
