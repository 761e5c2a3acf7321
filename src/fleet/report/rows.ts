import { HTML_REPORT_FILE } from '../../report/html.js';
import {
  OUTCOME_ORDER,
  type AuditDepth,
  type FleetOutcome,
  type FleetReport,
  type FleetServerResult,
} from '../../model/fleet.js';

/** Each outcome as the reports name it. */
export const OUTCOME_LABELS: Readonly<Record<FleetOutcome, string>> = {
  conformant: 'conformant',
  warnings: 'warnings',
  failing: 'failing',
  'could-not-start': 'could not start',
  unreachable: 'unreachable',
  'needs-secret': 'needs secret',
  'timed-out': 'timed out',
  'invalid-entry': 'invalid entry',
  skipped: 'skipped',
};

/** The server's own HTML report: `report.html` beside its report.json (FleetServerResult.reportFile). */
export const SERVER_HTML_REPORT = HTML_REPORT_FILE;

/**
 * The outcome and its why on one line (`needs secret: GITHUB_TOKEN`), the label not repeated when the why starts with
 * it.
 */
export function outcomeLine(server: Pick<FleetServerResult, 'outcome' | 'why'>): string {
  const label = OUTCOME_LABELS[server.outcome];
  return server.why.toLowerCase().startsWith(label) ? server.why : `${label}: ${server.why}`;
}

/** The counts of the summary line, in outcome order, outcomes no server had left out. */
export function outcomeCounts(report: Pick<FleetReport, 'summary'>): { outcome: FleetOutcome; count: number }[] {
  return OUTCOME_ORDER.map((outcome) => ({ outcome, count: report.summary[outcome] ?? 0 })).filter(
    (entry) => entry.count > 0,
  );
}

/**
 * The relative URL of a server's own HTML report, from its report.json's relative path: each path segment
 * percent-encoded, so nothing in it can become a scheme, a query or markup. None for an absolute path.
 */
export function serverHtmlHref(server: Pick<FleetServerResult, 'reportFile'>): string | undefined {
  const file = server.reportFile;
  if (file === undefined || /^([/\\]|[A-Za-z]:)/.test(file)) return undefined;
  const folder = file.split(/[/\\]/).slice(0, -1);
  return [...folder, SERVER_HTML_REPORT].map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * The server's transport as the fleet names them (stdio, http, sse): as its file declares it, or `sse` when its audit
 * found the deprecated HTTP+SSE transport behind an http URL. An sse entry stays `sse` whether or not it was reached
 * (a single audit's report names a --url target `http` until the fallback).
 */
export function transportText(server: Pick<FleetServerResult, 'transport' | 'report'>): FleetServerResult['transport'] {
  return server.report?.target.transport === 'http+sse' ? 'sse' : server.transport;
}

/** `called/listed`, and the checks skipped for want of a callable tool when there were any. */
export function depthText(depth: AuditDepth | undefined): string {
  if (depth === undefined) return NOT_AUDITED;
  const skipped =
    depth.skippedForNoCallableTool > 0 ? `, ${depth.skippedForNoCallableTool} checks skipped (no callable tool)` : '';
  return `${depth.toolsCalled}/${depth.toolsListed}${skipped}`;
}

export function secondsText(ms: number): string {
  return (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(1);
}

/** The mark of what a server that was not audited has none of (counts, revision, depth), the same in every cell. */
export const NOT_AUDITED = '—';

/**
 * Whether the server's counts say something: its audit agreed a revision, or judged something before it was lost. A
 * server that never started, or whose audit ended before any revision was agreed with nothing judged, was not audited.
 */
export function wasAudited(server: Pick<FleetServerResult, 'summary' | 'protocolVersion'>): boolean {
  const summary = server.summary;
  if (summary === undefined) return false;
  return (
    (server.protocolVersion !== undefined && server.protocolVersion !== null) ||
    summary.fail + summary.warn + summary.error > 0
  );
}

/** A count of the server's own report, or the not-audited mark. */
export function countText(server: FleetServerResult, status: 'fail' | 'warn'): string {
  return wasAudited(server) ? String(server.summary![status]) : NOT_AUDITED;
}

/** Its time in seconds, or the not-audited mark for a server never started (no time, no report). */
export function serverSecondsText(server: Pick<FleetServerResult, 'durationMs' | 'report'>): string {
  return server.durationMs === 0 && server.report === undefined ? NOT_AUDITED : secondsText(server.durationMs);
}
