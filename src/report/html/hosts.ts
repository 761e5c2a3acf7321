import type { HostsReport } from '../../model/hosts.js';
import { hostCounts, hostFindingRows, serverNameNote } from '../hosts-lines.js';
import { blockText, escapeHtml, inlineText } from './escape.js';

const MAX_ROWS = 300;

/**
 * --hosts: a row per host, each blocked or degraded tool with its fix, the strict rewrites, and every rule's source.
 */
export function renderHosts(hosts: HostsReport | undefined): string {
  if (!hosts) return '';
  const sourceOf = new Map(hosts.rules.map((rule) => [rule.id, rule.sources[0]!.url]));
  const summary = hosts.hosts
    .map(
      (h) =>
        `<tr><td><code>${h.host}</code></td><td>${escapeHtml(hostCounts(h))}</td><td>${escapeHtml(h.label)}` +
        `</td><td>${h.notSourced.map((n) => escapeHtml(n)).join('<br>')}</td></tr>`,
    )
    .join('');
  const rows = hostFindingRows(hosts);
  const findings = rows
    .slice(0, MAX_ROWS)
    .map((row) => {
      const badge = row.verdict === 'blocked' ? 'fail' : 'warn';
      return (
        `<li data-status="${badge}"><span class="badge ${badge}">${row.verdict}</span> <code>${row.host}` +
        `</code> <span class="untrusted">${inlineText(row.tool, 120)}</span> ` +
        `<span class="muted">${inlineText(row.message, 400)}</span><br>fix: ${inlineText(row.fix, 300)} ` +
        `<a href="${escapeHtml(sourceOf.get(row.rule) ?? '#')}" rel="noreferrer"><code>${escapeHtml(row.rule)}` +
        `</code></a></li>`
      );
    })
    .join('');
  const rewrites = hosts.hosts
    .flatMap((h) =>
      h.tools
        .filter((t) => t.rewrittenSchema !== undefined)
        .map((t) => ({ host: h.host, tool: t.tool, schema: t.rewrittenSchema })),
    )
    .map(
      (r) =>
        `<details><summary><code>${r.host}</code> <span class="untrusted">${inlineText(r.tool, 120)}</span>: ` +
        `inputSchema rewritten for strict mode</summary><pre>` +
        `${blockText(JSON.stringify(r.schema, null, 2), 20_000)}</pre></details>`,
    )
    .join('');
  const rules = hosts.rules
    .map(
      (rule) =>
        `<li><code>${escapeHtml(rule.id)}</code> (${rule.effect}): ${escapeHtml(rule.title)}<ul>` +
        `${rule.sources
          .map(
            (s) =>
              `<li>“${escapeHtml(s.quote)}” — <a href="${escapeHtml(s.url)}" rel="noreferrer">` +
              `${escapeHtml(s.kind)}</a>, read ${escapeHtml(s.read)}</li>`,
          )
          .join('')}` +
        `</ul></li>`,
    )
    .join('');
  const failOn = hosts.failOnHost.length > 0 ? ` (${hosts.failOnHost.join(', ')})` : '';
  /* eslint-disable max-len -- the page text as written to report.html: a line break would change the file */
  return `<section id="hosts"><h2>Host compatibility</h2>
<p class="muted">${inlineText(serverNameNote(hosts), 300)}${hosts.listingComplete ? '' : ', on the tools of an incomplete listing'}. Not conformance: a blocked tool fails the run only for the hosts of --fail-on-host${escapeHtml(failOn)}.</p>
<table><thead><tr><th>Host</th><th>Tools</th><th>Profile</th><th>Not judged (no primary source)</th></tr></thead><tbody>${summary}</tbody></table>
${
  findings === ''
    ? ''
    : `<ol class="findings">${findings}</ol>` +
      `${rows.length > MAX_ROWS ? `<p class="muted">… ${rows.length - MAX_ROWS} more in report.json.</p>` : ''}`
}
${rewrites}
<details><summary>The rules and their sources</summary><ul>${rules}</ul></details>
</section>`;
  /* eslint-enable max-len */
}
