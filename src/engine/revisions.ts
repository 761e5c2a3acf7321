import { revisionsOf, type CheckResult, type Status } from '../model/check.js';
import { EXIT } from '../model/exit-codes.js';
import {
  auditedRuns,
  type MatrixCell,
  type MatrixRow,
  type RevisionEntry,
  type RevisionsReport,
  type RunReport,
} from '../model/report.js';
import type { Revision } from '../core/revision.js';
import { RevisionRefusedError } from '../protocol/errors.js';
import { TargetNotStartedError } from '../transport/types.js';
import type { CheckDefinition } from '../runner/types.js';
import { runAudit, verdictOf, type AuditTarget } from './audit.js';
import type { AuditConfig } from './config.js';
import type { AuditHandler } from './events.js';
import { scrubSecrets } from './scrub.js';

/** One revision's audit, as the shell opens it: its own connection (a process of its own over stdio) and budget. */
export interface RevisionRun {
  /** Its negotiation offers the revision and rejects with RevisionRefusedError when the target does not take it. */
  target: AuditTarget;
  config: AuditConfig;
}

export interface RevisionsPlan {
  /** The revisions to audit, in the order they are audited and shown (newest first). */
  revisions: readonly Revision[];
  /** Called once per revision, when its turn comes: the runs share nothing but the target's command line or URL. */
  open(revision: Revision): Promise<RevisionRun>;
  config: Pick<AuditConfig, 'toolVersion' | 'failOn' | 'secrets' | 'startedAt' | 'started'>;
}

/**
 * A --revisions audit: one run per revision, one after another (never two at once, so the target bears no more load
 * than a single audit puts on it), each exactly the audit `--protocol-version <revision>` would run, except that a
 * revision the target does not take is reported as not supported instead of being audited under the one it answered.
 * Ends with the matrix of checks by revision; the exit code is the worst run's, and 3 when no revision was audited.
 */
export async function runRevisions(
  plan: RevisionsPlan,
  checks: readonly CheckDefinition[],
  handle: AuditHandler,
): Promise<RevisionsReport> {
  if (plan.revisions.length === 0) throw new RangeError('--revisions names no revision');
  await handle({ type: 'revisions-started', revisions: plan.revisions });
  const entries: RevisionEntry[] = [];
  let description: RunReport['target'] | undefined;
  let notStarted: string | undefined;
  for (const revision of plan.revisions) {
    await handle({ type: 'revision-started', revision });
    if (notStarted !== undefined) {
      entries.push({ revision, status: 'not-tried', reason: notStarted });
      await handle({ type: 'revision-not-audited', revision, status: 'not-tried', reason: notStarted });
      continue;
    }
    const { target, config } = await plan.open(revision);
    description ??= target.description;
    const failure = await target.negotiation.then(
      () => undefined,
      (error: unknown) => error,
    );
    const refusal = failure instanceof RevisionRefusedError ? failure : undefined;
    if (failure instanceof TargetNotStartedError) {
      notStarted =
        `the target could not be started or reached when ${revision} was offered (` +
        `${scrubSecrets(failure.message, plan.config.secrets)}), and no other revision can change that`;
    }
    if (refusal) {
      await target.transport.close();
      const reason = scrubSecrets(refusal.message, plan.config.secrets);
      entries.push({ revision, status: 'not-supported', reason });
      await handle({ type: 'revision-not-audited', revision, status: 'not-supported', reason });
      continue;
    }
    entries.push({ revision, status: 'audited', run: await runAudit(target, checks, config, handle) });
  }
  const runs = auditedRuns({ revisions: entries });
  const exitCode = revisionsExitCode(runs.map(({ run }) => run));
  const report: RevisionsReport = {
    tool: { name: 'mcp-tools-conformance', version: plan.config.toolVersion },
    target: description!,
    startedAt: plan.config.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - plan.config.started),
    verdict: verdictOf(exitCode),
    exitCode,
    failOn: plan.config.failOn,
    revisions: entries,
    matrix: matrixRows(checks, runs),
  };
  await handle({ type: 'revisions-finished', report });
  return report;
}

/** The worst run decides, as within one run: a run that could not be audited (3) over failures (1) over a pass (0). */
export function revisionsExitCode(runs: readonly Pick<RunReport, 'exitCode'>[]): number {
  if (runs.length === 0) return EXIT.unavailable;
  const codes = runs.map((run) => run.exitCode ?? EXIT.unavailable);
  if (codes.includes(EXIT.unavailable)) return EXIT.unavailable;
  return codes.includes(EXIT.failures) ? EXIT.failures : EXIT.ok;
}

/** Which status a cell shows when a check has several outcomes on one revision (one per tool): the most telling. */
const CELL_RANK: Record<Status, number> = { fail: 0, error: 1, warn: 2, pass: 3, skip: 4 };

export function cellOf(results: readonly Pick<CheckResult, 'status'>[]): Status | undefined {
  let worst: Status | undefined;
  for (const { status } of results) if (worst === undefined || CELL_RANK[status] < CELL_RANK[worst]) worst = status;
  return worst;
}

/** A row per check, a cell per audited revision: `n/a` where the check has no sentence of that revision. */
export function matrixRows(
  checks: readonly Pick<CheckDefinition, 'id' | 'title' | 'area' | 'sentences'>[],
  runs: readonly { revision: Revision; run: Pick<RunReport, 'checks'> }[],
): MatrixRow[] {
  const byRun = runs.map(({ revision, run }) => {
    const byId = new Map<string, CheckResult[]>();
    for (const result of run.checks) byId.set(result.id, [...(byId.get(result.id) ?? []), result]);
    return { revision, byId };
  });
  return checks.map((check) => {
    const applies = revisionsOf(check);
    const cells: Partial<Record<Revision, MatrixCell>> = {};
    for (const { revision, byId } of byRun) {
      const cell = applies.includes(revision) ? cellOf(byId.get(check.id) ?? []) : 'n/a';
      if (cell !== undefined) cells[revision] = cell;
    }
    return { id: check.id, title: check.title, area: check.area, cells };
  });
}
