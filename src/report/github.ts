import { appendFile } from 'node:fs/promises';
import type { CheckResult } from '../model/check.js';
import { renderMarkdown, renderMarkdownRevisions } from './markdown.js';
import { labelOf } from './statuses.js';
import { terminalInline, terminalLines } from './text-safety.js';
import type { Reporter } from './types.js';
import { auditedRuns, type RevisionsReport, type RunReport } from '../model/report.js';

/** GitHub shows at most this many annotations of each type per step; the rest stay in the log only. */
export const SHOWN_PER_TYPE = 10;
const MAX_MESSAGE_LINES = 20;

export interface GithubOptions {
  stream?: NodeJS.WritableStream;
  /** The file the markdown summary is appended to (GitHub's $GITHUB_STEP_SUMMARY); none: no summary. */
  stepSummary?: string;
  /** The JSON report written in the same run: a finding the summary cuts points there. */
  jsonReport?: string;
}

/** A workflow command's message: `%`, CR and LF escaped, so that the command stays one line. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: as a message, and `:` and `,` too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

type Level = 'error' | 'warning' | 'notice';

function command(level: Level, title: string, message: string): string {
  return `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/** Target text on lines of its own, control characters shown escaped and lengths capped. */
function findingText(check: CheckResult): string {
  const lines = terminalLines(check.tool !== undefined ? `[${check.tool}] ${check.message}` : check.message, {
    maxLines: MAX_MESSAGE_LINES,
  });
  if (check.expected !== undefined) lines.push(`expected: ${terminalInline(check.expected)}`);
  if (check.quote !== undefined) lines.push(`${labelOf(check)}: "${terminalInline(check.quote, 600)}"`);
  lines.push(check.specUrl);
  return lines.join('\n');
}

/**
 * The workflow commands for a finished report: an error per fail or error and per run-level failure (an incomplete
 * audit, a changed tool lock), all of them; a warning per warn, the first SHOWN_PER_TYPE; findings in the baseline
 * none. A notice says what GitHub will not show.
 */
export function annotations(report: RunReport, titlePrefix = ''): string[] {
  const counted = report.checks.filter((c) => !c.baselined);
  const errors = counted
    .filter((c) => c.status === 'fail' || c.status === 'error')
    .map((c) => command('error', `${titlePrefix}${c.id}`, findingText(c)));
  if (report.aborted)
    errors.unshift(
      command(
        'error',
        `${titlePrefix}mcp-tools-conformance`,
        `the audit did not complete: ${terminalInline(report.aborted.reason, 1000)}`,
      ),
    );
  if (report.lock?.status === 'changed')
    errors.push(command('error', `${titlePrefix}tool lock`, lockText(report.lock)));
  const warnings = counted
    .filter((c) => c.status === 'warn')
    .map((c) => command('warning', `${titlePrefix}${c.id}`, findingText(c)));
  const lines = [...errors, ...warnings.slice(0, SHOWN_PER_TYPE)];
  const unseen = [
    ...(errors.length > SHOWN_PER_TYPE
      ? [`${errors.length} errors annotated, GitHub shows the first ${SHOWN_PER_TYPE}`]
      : []),
    ...(warnings.length > SHOWN_PER_TYPE ? [`${warnings.length} warnings, the first ${SHOWN_PER_TYPE} annotated`] : []),
  ];
  if (unseen.length > 0)
    lines.push(
      command(
        'notice',
        'mcp-tools-conformance',
        `${unseen.join('; ')}. Every finding is in the job summary and the reports.`,
      ),
    );
  return lines;
}

function lockText(lock: NonNullable<RunReport['lock']>): string {
  const changes = [
    ...lock.added.map((n) => `+${n}`),
    ...lock.removed.map((n) => `-${n}`),
    ...lock.changed.map((c) => `~${c.tool} (${c.fields.join(', ')})`),
  ];
  return terminalInline(`the tool set changed since ${lock.file}: ${changes.join(', ')}`, 2000);
}

/** A --revisions audit: each run's annotations, their titles starting with the revision (`[2025-06-18] <check id>`). */
export function revisionsAnnotations(report: RevisionsReport): string[] {
  return auditedRuns(report).flatMap(({ revision, run }) => annotations(run, `[${revision}] `));
}

export function createGithubReporter(options: GithubOptions = {}): Reporter {
  const stream = options.stream ?? process.stdout;
  const stepSummary = options.stepSummary ?? process.env.GITHUB_STEP_SUMMARY;
  const summaryOptions = options.jsonReport !== undefined ? { jsonReport: options.jsonReport } : {};
  const write = async (lines: readonly string[], summary: () => string) => {
    for (const line of lines) stream.write(`${line}\n`);
    if (!stepSummary) return undefined;
    try {
      await appendFile(stepSummary, `${summary()}\n`, 'utf8');
    } catch (error) {
      stream.write(
        `${command(
          'warning',
          'mcp-tools-conformance',
          `the summary could not be appended to GITHUB_STEP_SUMMARY (` +
            `${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        )}` + `\n`,
      );
    }
    return undefined;
  };
  return {
    name: 'github',
    finish: (report) => write(annotations(report), () => renderMarkdown(report, summaryOptions)),
    finishRevisions: (report) =>
      write(revisionsAnnotations(report), () => renderMarkdownRevisions(report, summaryOptions)),
  };
}
