import type { Status } from '../../model/check.js';
import type { FleetOutcome, FleetReport, FleetServerResult } from '../../model/fleet.js';
import { formatDuration } from '../../report/duration.js';
import { blockText, escapeHtml, inlineText } from '../../report/html/escape.js';
import { htmlPage } from '../../report/html/page.js';
import { fleetHostTable, hostCell } from '../../report/hosts-lines.js';
import {
  countText,
  depthText,
  NOT_AUDITED,
  OUTCOME_LABELS,
  serverHtmlHref,
  serverSecondsText,
  transportText,
} from './rows.js';
import { OUTCOME_ORDER } from '../../model/fleet.js';

const MAX_NAME_CHARS = 200;
const MAX_WHY_CHARS = 500;
const MAX_STDERR_CHARS = 4000;
/**
 * A deeper-with hint is kept whole up to this (it is there to be copied); one longer than FOLD_HINT_CHARS is folded.
 */
const MAX_HINT_CHARS = 8000;
const FOLD_HINT_CHARS = 120;
/**
 * The servers table's columns, each with a share of the width (style.ts): fixed, so no cell can push Why off the page.
 */
const SERVER_COLUMNS = [
  'server',
  'transport',
  'revision',
  'outcome',
  'fails',
  'warns',
  'depth',
  'seconds',
  'why',
] as const;

/** The colour of an outcome: that of the check status it resembles. */
const OUTCOME_CLASS: Readonly<Record<FleetOutcome, Status>> = {
  conformant: 'pass',
  warnings: 'warn',
  failing: 'fail',
  'could-not-start': 'error',
  unreachable: 'error',
  'needs-secret': 'error',
  'timed-out': 'error',
  'invalid-entry': 'error',
  skipped: 'skip',
};

function fact(label: string, html: string): string {
  return `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`;
}

function renderFacts(report: FleetReport): string {
  const facts = [
    fact('Files', report.files.map((file) => `<code>${inlineText(file, MAX_NAME_CHARS)}</code>`).join(', ') || 'none'),
    fact('Servers', String(report.servers.length)),
    ...(report.shard ? [fact('Shard', `${report.shard.index} of ${report.shard.count}`)] : []),
    fact('Started', escapeHtml(report.startedAt)),
    fact('Duration', escapeHtml(formatDuration(report.durationMs))),
    fact(
      'Fails on',
      `${report.failOn === 'must' ? 'MUST failures' : 'MUST failures and SHOULD warnings'}` +
        `${report.failOnUnavailable ? ', and servers that could not be audited' : ''}`,
    ),
    fact('Exit code', `<span data-exit-code>${report.exitCode}</span>`),
  ];
  return `<dl class="facts">${facts.join('')}</dl>`;
}

function renderSummary(report: FleetReport): string {
  const tiles = OUTCOME_ORDER.map(
    (outcome) =>
      `<div class="tile ${OUTCOME_CLASS[outcome]}"><span class="count" data-outcome-count="${outcome}">` +
      `${report.summary[outcome] ?? 0}</span>${escapeHtml(OUTCOME_LABELS[outcome])}</div>`,
  );
  return (
    `<section id="summary"><h2>Outcomes</h2><div class="tiles"><div class="tile"><span class="count" ` +
    `data-outcome-count="total">${report.servers.length}</span>servers</div>${tiles.join('')}</div></section>`
  );
}

function countCell(server: FleetServerResult, status: 'fail' | 'warn'): string {
  const text = countText(server, status);
  return (
    `<td class="${status} ${text === '0' || text === NOT_AUDITED ? 'zero' : 'nonzero'}" data-count="${status}">` +
    `${text}</td>`
  );
}

/**
 * The flag that would go deeper, breakable after each comma (`--allow-tools a:b,c:d,…` has no space); a long one folded
 * under a summary that counts its tools, so it neither widens the table nor fills the row.
 */
function deeperHtml(hint: string | undefined): string {
  if (hint === undefined) return '';
  const code = `<code>${inlineText(hint, MAX_HINT_CHARS).replace(/,/g, ',<wbr>')}</code>`;
  if ([...hint].length <= FOLD_HINT_CHARS) return `<br><span class="muted">deeper with ${code}</span>`;
  const tools = /^--allow-tools (\S+)$/.exec(hint)?.[1]!.split(',').length;
  const summary =
    tools === undefined
      ? 'deeper with a longer flag'
      : `deeper with <code class="flag">--allow-tools</code> for ${tools} tools`;
  return `<details class="hint"><summary class="muted">${summary}</summary>${code}</details>`;
}

function serverRow(server: FleetServerResult, index: number): string {
  const name = inlineText(server.name, MAX_NAME_CHARS);
  const href = serverHtmlHref(server);
  const nameHtml = href === undefined ? name : `<a href="${escapeHtml(href)}">${name}</a>`;
  const deeper = deeperHtml(server.depth?.deeperWith);
  const stderr =
    server.stderr === undefined || server.stderr.length === 0
      ? ''
      : `<details class="stderr"><summary>stderr</summary><pre>` +
        `${blockText(server.stderr.join('\n'), MAX_STDERR_CHARS)}</pre></details>`;
  const cells = [
    `<th class="text" data-cell="server">${nameHtml}<br><span class="muted">` +
      `${inlineText(server.source, MAX_NAME_CHARS)}</span></th>`,
    `<td class="text" data-cell="transport">${escapeHtml(transportText(server))}</td>`,
    `<td class="text" data-cell="revision">${escapeHtml(server.protocolVersion ?? NOT_AUDITED)}</td>`,
    `<td class="text" data-cell="outcome"><span class="badge ${OUTCOME_CLASS[server.outcome]}">` +
      `${escapeHtml(OUTCOME_LABELS[server.outcome])}</span></td>`,
    countCell(server, 'fail'),
    countCell(server, 'warn'),
    `<td data-cell="depth">${escapeHtml(depthText(server.depth))}${deeper}</td>`,
    `<td data-cell="seconds">${serverSecondsText(server)}</td>`,
    `<td class="text" data-cell="why"><span class="untrusted">${inlineText(server.why, MAX_WHY_CHARS)}</span>` +
      `${stderr}</td>`,
  ];
  return `<tr data-index="${index}" data-outcome="${server.outcome}">${cells.join('')}</tr>`;
}

function renderServers(report: FleetReport): string {
  const head = [
    'Server',
    'Transport',
    'Revision agreed',
    'Outcome',
    'Fails',
    'Warns',
    'Depth (called/listed)',
    'Seconds',
    'Why',
  ]
    .map((label, i) => `<th${i < 4 || i === 8 ? ' class="text"' : ''}>${escapeHtml(label)}</th>`)
    .join('');
  const rows = report.servers.map(serverRow);
  const columns = SERVER_COLUMNS.map((column) => `<col class="${column}">`).join('');
  return (
    `<section id="servers-section"><h2>Servers</h2><p class="muted">A row per server, in the order of its ` +
    `file; a server's name opens its own report.</p><table id="servers"><colgroup>${columns}` +
    `</colgroup><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></section>`
  );
}

function renderFindings(report: FleetReport): string {
  if (report.findings.length === 0)
    return (
      `<section id="findings-section"><h2>Fleet findings</h2><p class="muted">None: no tool name served twice, ` +
      `no description naming another server's tools.</p></section>`
    );
  const list = (items: readonly string[]) =>
    items.map((item) => `<span class="untrusted">${inlineText(item, MAX_NAME_CHARS)}</span>`).join(', ');
  const rows = report.findings.map(
    (finding) =>
      `<tr data-finding="${escapeHtml(finding.id)}"><th class="text"><code>${escapeHtml(finding.id)}` +
      `</code></th><td class="text"><span class="badge warn">${escapeHtml(finding.status)}</span></td><td ` +
      `class="text">${list(finding.servers)}</td><td class="text">${list(finding.tools)}</td><td class="text ` +
      `message">${inlineText(finding.message, MAX_WHY_CHARS)}</td></tr>`,
  );
  return (
    `<section id="findings-section"><h2>Fleet findings</h2><p class="muted">What only a fleet can see; ` +
    `warnings under Security Considerations, never failures.</p><table id="findings"><thead><tr><th ` +
    `class="text">Finding</th><th class="text">Status</th><th class="text">Servers</th><th ` +
    `class="text">Tools</th><th class="text">Message</th></tr></thead><tbody>${rows.join('')}` +
    `</tbody></table></section>`
  );
}

/**
 * The fleet's dashboard: one self-contained page (no script, nothing loaded from anywhere) with the outcome counts, a
 * row per server whose name opens that server's own `report.html` (beside its report.json), and the fleet findings.
 */
export function fleetHtml(report: FleetReport): string {
  const body = `<header><h1>MCP Tools conformance: fleet</h1>${renderFacts(report)}</header>
<main>
${renderSummary(report)}
${renderServers(report)}
${renderHostsTable(report)}
${renderFindings(report)}
</main>`;
  return htmlPage(
    `MCP Tools conformance fleet: ${report.servers.length} servers`,
    body,
    `Generated by ${escapeHtml(report.tool.name)} ${escapeHtml(report.tool.version)}; each server judged under ` +
      `the revision it agreed.`,
    null,
  );
}

/** --hosts: per server, the tools each host blocks or degrades; a server's own report has the fixes. */
function renderHostsTable(report: FleetReport): string {
  const table = fleetHostTable(report);
  if (!table) return '';
  const head =
    `<tr><th class="text">Server</th>` +
    `${table.hosts.map((h) => `<th class="text">${escapeHtml(h)}</th>`).join('')}</tr>`;
  const rows = table.rows.map((row) => {
    const cells = table.hosts.map((h) => {
      const counts = row.cells[h];
      const status = (counts?.blocked ?? 0) > 0 ? 'fail' : (counts?.degraded ?? 0) > 0 ? 'warn' : 'pass';
      return `<td class="text"><span class="badge ${status}">${escapeHtml(hostCell(counts))}</span></td>`;
    });
    return `<tr><td class="text">${inlineText(row.server, MAX_NAME_CHARS)}</td>${cells.join('')}</tr>`;
  });
  return (
    `<section id="hosts-section"><h2>Host compatibility</h2><p class="muted">Tools each host blocks or ` +
    `degrades, by rules quoting the hosts' own documentation or code; each server's report has the ` +
    `fixes.</p><table id="hosts"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></section>`
  );
}
