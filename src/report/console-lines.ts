import type { CheckResult, Evidence, Status } from '../model/check.js';
import { isObject } from '../core/jsonrpc.js';
import type { Palette } from './color.js';
import { backing } from './backing.js';
import { boundValue, DEFAULT_EVIDENCE_LIMITS } from './evidence-bounds.js';
import { KEYWORD_LABEL_WIDTH, labelOf } from './statuses.js';
import { terminalInline, terminalLines } from './text-safety.js';

const INDENT = '      ';

export function statusBadge(status: Status, paint: Palette): string {
  switch (status) {
    case 'pass':
      return paint.green('PASS');
    case 'fail':
      return paint.red('FAIL');
    case 'warn':
      return paint.yellow('WARN');
    case 'skip':
      return paint.dim('SKIP');
    case 'error':
      return paint.magenta('ERR ');
  }
}

export function areaHeading(area: string, paint: Palette): string {
  return paint.bold(terminalInline(area));
}

/** Evidence printed by --verbose is cut to this many lines of pretty JSON per item. */
const EVIDENCE_LINES = 60;
/** Strings inside verbose evidence are cut to this length before printing. */
const EVIDENCE_STRING_CHARS = 2_000;

function evidenceHeading(item: Evidence): string {
  if ('note' in item) return `note: ${item.note}`;
  const method =
    isObject(item.request) && typeof item.request.method === 'string' ? item.request.method : '(no method)';
  const parts = [`#${item.seq} ${method}`, `${item.durationMs} ms`];
  if (item.status !== undefined) parts.push(`HTTP ${item.status}`);
  if (item.failure !== undefined) parts.push(`${item.failure.kind}: ${item.failure.message}`);
  return parts.join(' · ');
}

/** The exchange itself, as JSON: what was sent, what came back (or the failure), and the notifications meanwhile. */
function evidenceBody(item: Evidence): unknown {
  if ('note' in item) return item.data;
  return {
    request: item.request,
    ...(item.response !== undefined ? { response: item.response } : {}),
    ...(item.notifications.length > 0 ? { notifications: item.notifications } : {}),
  };
}

/** One evidence item for --verbose: a heading, then its JSON, bounded and made terminal-safe line by line. */
function evidenceLines(item: Evidence, paint: Palette): string[] {
  const body = evidenceBody(item);
  const lines = [INDENT + paint.dim(terminalInline(evidenceHeading(item)))];
  if (body === undefined) return lines;
  const json =
    JSON.stringify(
      boundValue(body, {
        ...DEFAULT_EVIDENCE_LIMITS,
        maxStringLength: EVIDENCE_STRING_CHARS,
        maxArrayLength: 50,
        maxDepth: 12,
      }),
      null,
      2,
    ) ?? 'undefined';
  return [
    ...lines,
    ...terminalLines(json, { maxLines: EVIDENCE_LINES }).map((line) => `${INDENT}  ${paint.dim(line)}`),
  ];
}

/** What a finding stands on: the kind of sentence, the sentence itself, and its page in the revision in use. */
function specLines(result: CheckResult, paint: Palette): string[] {
  const lines = [INDENT + paint.dim(`spec: ${backing(result.keywordText)} · ${result.specUrl}`)];
  if (result.quote !== undefined) lines.push(INDENT + paint.dim(`"${terminalInline(result.quote, 400)}"`));
  return lines;
}

/** The line for one finished check, plus indented details for anything that is not a pass. */
export function checkLines(result: CheckResult, paint: Palette, verbose: boolean): string[] {
  const head = [
    statusBadge(result.status, paint),
    labelOf(result).padEnd(KEYWORD_LABEL_WIDTH),
    terminalInline(result.id),
    terminalInline(result.title),
  ];
  if (result.baselined) head.push(paint.dim('(known: in the baseline)'));
  if (result.tool !== undefined) head.push(paint.dim(`[${terminalInline(result.tool, 120)}]`));
  const lines = [head.join(' ')];
  if (result.status !== 'pass' || verbose) {
    lines.push(...terminalLines(result.message).map((line) => INDENT + line));
    if (result.expected !== undefined)
      lines.push(...terminalLines(`expected: ${result.expected}`).map((line) => INDENT + line));
    if (result.replay !== undefined) lines.push(INDENT + paint.dim(`replay: ${terminalInline(result.replay)}`));
  }
  if (result.status === 'fail' || result.status === 'warn' || verbose) lines.push(...specLines(result, paint));
  if (verbose) {
    for (const item of result.evidence) lines.push(...evidenceLines(item, paint));
  }
  return lines;
}

/**
 * A one-line restatement of a fail, warn or error for the recap after the summary (and its replay line); `revision`
 * names the run it came from in a --revisions audit.
 */
export function recapLines(result: CheckResult, paint: Palette, revision?: string): string[] {
  const tool = result.tool === undefined ? '' : ` [${terminalInline(result.tool, 80)}]`;
  const message = terminalInline(result.message.split(/\r?\n/)[0] ?? '', 200);
  const run = revision === undefined ? '' : `${paint.dim(revision)} `;
  const lines = [`  ${statusBadge(result.status, paint)} ${run}${terminalInline(result.id)}${tool}: ${message}`];
  if (result.replay !== undefined) lines.push(`       ${paint.dim(`replay: ${terminalInline(result.replay, 400)}`)}`);
  return lines;
}
