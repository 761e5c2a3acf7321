import { depthLine } from '../depth-line.js';
import { callsChanged, effectsRows, sandboxLine } from '../effects-table.js';
import { formatDuration } from '../duration.js';
import { STATUSES } from '../statuses.js';
import type { RunReport } from '../../model/report.js';
import type { CoverageFigure } from './coverage.js';
import { escapeHtml, inlineText } from './escape.js';

const MAX_FACT_CHARS = 500;
const MAX_TOOLS_LISTED = 50;

/** A value the target (or the person running the audit) controls: escaped and marked as quoted text. */
function quoted(text: string): string {
  return `<span class="untrusted">${inlineText(text, MAX_FACT_CHARS)}</span>`;
}

function fact(label: string, html: string): string {
  return `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`;
}

function targetText(report: RunReport): string {
  if (report.client)
    return `client over ${escapeHtml(report.target.transport)}: ${quoted(report.target.command ?? '')}`;
  const target = report.target.command ?? report.target.url ?? report.target.file;
  return target === undefined
    ? escapeHtml(report.target.transport)
    : `${escapeHtml(report.target.transport)}: ${quoted(target)}`;
}

/**
 * The tools called, with how often. When the listing is known, a name it does not hold is one of our probes (a call of
 * a tool the server does not list, to see its error): those are named apart, so that the tools called agree with the
 * depth's count.
 */
function toolsCalled(report: RunReport): string {
  const listing = report.stats.toolsListed === undefined ? undefined : new Set(report.stats.toolsListed);
  const entries = Object.entries(report.stats.toolsCalled);
  const called = entries.filter(([name]) => listing === undefined || listing.has(name));
  const probes = entries.filter(([name]) => listing !== undefined && !listing.has(name));
  const names = (list: [string, number][]) => {
    const shown = list.slice(0, MAX_TOOLS_LISTED).map(([name, count]) => `${quoted(name)} ×${count}`);
    if (list.length > MAX_TOOLS_LISTED) shown.push(`…[+${list.length - MAX_TOOLS_LISTED} more tools]`);
    return shown.join(', ');
  };
  const probed =
    probes.length === 0
      ? ''
      : `<br><span class="muted">and, as probes of names the server does not list: ${names(probes)}</span>`;
  return (
    `${called.length > 0 ? names(called) : listing === undefined ? 'none' : 'none of the tools it lists'}` + `${probed}`
  );
}

export function renderFacts(report: RunReport): string {
  const server = report.client ?? report.server;
  const identity =
    server?.name === undefined && server?.version === undefined
      ? '<span class="muted">not reported</span>'
      : [server.name, server.version]
          .filter((part): part is string => part !== undefined)
          .map(quoted)
          .join(' ');
  const facts = [
    fact('Target', targetText(report)),
    fact(
      'Wire',
      `${escapeHtml(report.wire.protocolVersion ?? 'none')} <span class="muted">(` +
        `${inlineText(report.wire.reason, MAX_FACT_CHARS)})</span>`,
    ),
    fact(report.client ? 'Client' : 'Server', identity),
    fact('Started', escapeHtml(report.startedAt)),
    fact('Duration', escapeHtml(formatDuration(report.durationMs))),
    fact('Requests', String(report.stats.requests)),
    fact('Tools called', toolsCalled(report)),
    ...(report.depth ? [fact('Depth', inlineText(depthLine(report.depth), MAX_FACT_CHARS))] : []),
    ...(report.sandbox ? [fact('Sandbox', inlineText(sandboxLine(report.sandbox), MAX_FACT_CHARS))] : []),
    ...(report.client?.notCalled
      ? [
          fact(
            'Not called',
            `${report.client.notCalled.map(quoted).join(', ')} <span class="muted">(listed to the client; no ` +
              `tools/call for them reached the scripted server)</span>`,
          ),
        ]
      : []),
  ];
  const reason = report.aborted === undefined ? '' : inlineText(report.aborted.reason, MAX_FACT_CHARS);
  const aborted =
    report.aborted === undefined
      ? ''
      : `<div class="aborted" id="aborted"><strong>The audit did not complete:</strong> ${reason}${
          report.aborted.duringCheck === undefined
            ? ''
            : ` (during <code>${inlineText(report.aborted.duringCheck, 200)}</code>)`
        }</div>`;
  return `<dl class="facts">${facts.join('')}</dl>${aborted}${effectsTable(report)}`;
}

/** "What each tool changed" in the sandbox, as a table. */
function effectsTable(report: RunReport): string {
  const rows = effectsRows(report);
  if (rows.length === 0) return '';
  const body = rows
    .map(
      (row) =>
        `<tr><td><code>${inlineText(row.tool, 120)}</code></td><td>${escapeHtml(callsChanged(row))}</td><td>` +
        `${inlineText(row.changes, MAX_FACT_CHARS)}</td></tr>`,
    )
    .join('');
  return (
    `<table class="effects" id="effects"><caption>What each tool ` +
    `changed</caption><thead><tr><th>Tool</th><th>Calls</th><th>What it changed</th></tr></thead><tbody>${body}` +
    `</tbody></table>`
  );
}

export function renderSummary(report: RunReport): string {
  const total = STATUSES.reduce((sum, status) => sum + report.summary[status], 0);
  const tiles = STATUSES.map(
    (status) =>
      `<div class="tile ${status}"><span class="count" data-summary="${status}">${report.summary[status]}` +
      `</span>${status}</div>`,
  );
  return (
    `<section id="summary"><h2>Summary</h2><div class="tiles"><div class="tile"><span class="count" ` +
    `data-summary="total">${total}</span>check outcomes</div>${tiles.join('')}</div></section>`
  );
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((100 * part) / whole)}%`;
}

export function renderCoverage(coverage: CoverageFigure | undefined): string {
  if (coverage === undefined) return '';
  const text =
    coverage.source === 'catalog' && coverage.requirements !== undefined
      ? `<strong data-coverage="covered">${coverage.covered}</strong> of <strong data-coverage="requirements">` +
        `${coverage.requirements}</strong> server-side requirements of the catalog (` +
        `${percent(coverage.covered, coverage.requirements)}) have a check among the ${coverage.checks} checks ` +
        `of this tool; this run decided (an outcome other than skip) <strong data-coverage="exercised">` +
        `${coverage.exercised}</strong> of them. The rest cannot be tested from outside, are permissions, or are ` +
        `planned: see CONFORMANCE.md.`
      : `The requirements catalog was not found next to this installation, so the share of it is not known: the ` +
        `${coverage.checks} checks of this tool cover <strong data-coverage="covered">${coverage.covered}` +
        `</strong> distinct requirement IDs (counted from the check registry); this run decided (an outcome ` +
        `other than skip) <strong data-coverage="exercised">${coverage.exercised}</strong> of them.`;
  return `<section id="coverage"><h2>Coverage</h2><p data-coverage-source="${coverage.source}">${text}</p></section>`;
}
