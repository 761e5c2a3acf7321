import type { CheckResult, Evidence, Status } from '../runner/types.js';
import { isObject } from '../jsonrpc.js';
import type { Palette } from './color.js';
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

function evidenceSummary(item: Evidence): string {
  if ('note' in item) return `note: ${item.note}`;
  const method = isObject(item.request) && typeof item.request.method === 'string' ? item.request.method : '(no method)';
  const parts = [`#${item.seq} ${method}`];
  if (item.status !== undefined) parts.push(`HTTP ${item.status}`);
  if (item.failure !== undefined) parts.push(`${item.failure.kind}: ${item.failure.message}`);
  else parts.push(item.response === undefined ? 'no response' : 'response');
  return parts.join(' · ');
}

/** The line for one finished check, plus indented details for anything that is not a pass. */
export function checkLines(result: CheckResult, paint: Palette, verbose: boolean): string[] {
  const head = [statusBadge(result.status, paint), result.keyword.padEnd(6), terminalInline(result.id), terminalInline(result.title)];
  if (result.baselined) head.push(paint.dim('(known: in the baseline)'));
  if (result.tool !== undefined) head.push(paint.dim(`[${terminalInline(result.tool, 120)}]`));
  const lines = [head.join(' ')];
  if (result.status !== 'pass' || verbose) {
    lines.push(...terminalLines(result.message).map((line) => INDENT + line));
    if (result.expected !== undefined) lines.push(...terminalLines(`expected: ${result.expected}`).map((line) => INDENT + line));
    if (result.replay !== undefined) lines.push(INDENT + paint.dim(`replay: ${terminalInline(result.replay)}`));
  }
  if (verbose) {
    for (const item of result.evidence) lines.push(INDENT + paint.dim(terminalInline(evidenceSummary(item))));
  }
  return lines;
}
