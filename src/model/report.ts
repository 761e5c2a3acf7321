import type { CallTimeouts } from './call-timeouts.js';
import type { BaselineSummary } from './baseline.js';
import type { CheckResult, Status } from './check.js';
import type { LockComparison } from './lock.js';
import type { Revision } from '../core/revision.js';
import type { ClientExit } from './client-observation.js';
import type { AuditDepth } from './depth.js';
import type { SandboxSummary, ToolEffects } from './effects.js';
import type { HostsReport } from './hosts.js';

/** Everything one run found: the contract of report.json (data/report.schema.json). */
export interface RunReport {
  tool: { name: 'mcp-tools-conformance'; version: string };
  target: {
    /**
     * `http+sse`: the deprecated HTTP with SSE transport of 2024-11-05, found behind a --url that refused the
     * initialize POST.
     */
    transport: 'stdio' | 'http' | 'http+sse' | 'snapshot';
    command?: string;
    url?: string;
    file?: string;
  };
  wire: { protocolVersion: Revision | null; reason: string };
  /** Server identity as the target reported it (untrusted, for display only). */
  server?: { name?: string; version?: string };
  /**
   * Client mode (`client` command): the client under test was audited against the scripted server; `target.command`
   * is its command line. Absent for a server audit.
   */
  client?: {
    /** The clientInfo its requests carried (untrusted, for display only). */
    name?: string;
    version?: string;
    scenarios: string[];
    exit: ClientExit;
    /**
     * Messages the scripted server received and kept (and those past the limit, counted only), and lines the driver
     * printed.
     */
    messages: number;
    messagesNotKept?: number;
    driverLines: number;
    /** The first stdout lines that were not driver lines (the contract wants nothing else on stdout). */
    stdoutNoise?: string[];
    /**
     * Valid tools the client received in a listing and never sent a tools/call for (it left them out, refused them
     * locally, or its driver skipped them), named once here. Tools on pages it never fetched are named by
     * page.client.both-flows.
     */
    notCalled?: string[];
  };
  startedAt: string;
  durationMs: number;
  /**
   * The limits the run was given (--timeout, --max-duration, --concurrency, --max-rps and --http-connections when set).
   */
  options: {
    timeoutMs: number;
    maxDurationMs: number;
    maxMessageBytes?: number;
    concurrency: number;
    maxRps?: number;
    httpConnections?: number;
  };
  stats: {
    requests: number;
    toolsCalled: Record<string, number>;
    /**
     * The named tools of the complete listing, once each, in order; absent when no listing was walked (snapshot, client
     * mode, a run cut off before it).
     */
    toolsListed?: string[];
    /**
     * Listed tools the safety options kept from being called (not read-only, not allowed): what --allow-tools would
     * add.
     */
    toolsNotAllowed?: string[];
    /**
     * Tool calls that timed out, and how the audit adapted (call-turns.ts): absent when none timed out or slowed it.
     */
    timeouts?: CallTimeouts;
  };
  /** How deep the audit went (depthOf): present when the live target's tool listing was walked. */
  depth?: AuditDepth;
  /** --sandbox: how the server was contained. */
  sandbox?: SandboxSummary;
  /** --sandbox: what each tool's calls changed on the filesystem, by tool (paths, kinds and sizes; never contents). */
  effects?: Record<string, ToolEffects>;
  summary: Record<Status, number>;
  /** Settings of the property-based checks, when any was selected: rerun with the same seed to get the same cases. */
  property?: { seed: number; runs: number; replay?: string };
  /**
   * What the run concluded, set once the baseline and lock are applied: the process exit code (0, 1 or 3) under
   * `failOn`, and its verdict (0 pass, 1 fail, 3 aborted). Absent only while the report is being built.
   */
  verdict?: 'pass' | 'fail' | 'aborted';
  exitCode?: number;
  failOn?: 'must' | 'should';
  /** Set when the audit could not complete: what happened and during which check. */
  /** `targetStderr`: the first lines, a line naming the error and the last lines the target wrote to stderr. */
  aborted?: { reason: string; duringCheck?: string; targetStderr?: string[] };
  /** Set when the --max-duration budget ran out: some checks were skipped or stopped before they finished. */
  cutShort?: { reason: string; checksSkipped: number };
  /** With --baseline: how the run compares with the known findings. */
  baseline?: BaselineSummary;
  /** With --lock: the tool set compared with the lock file. */
  lock?: LockComparison;
  /**
   * With --hosts: each listed tool per host (works, degraded, blocked), by rules quoting the hosts' sources; not
   * checks.
   */
  hosts?: HostsReport;
  checks: CheckResult[];
}

/**
 * One revision of a `--revisions` audit: audited (with its own run's report); not supported by the target, with what it
 * answered when that revision was offered; or not tried, because an earlier revision found a target that could not be
 * started or reached at all.
 */
export type RevisionEntry =
  | { revision: Revision; status: 'audited'; run: RunReport }
  | { revision: Revision; status: 'not-supported' | 'not-tried'; reason: string };

/** How a revision that was not audited is named in every report: "not supported" or "not tried". */
export function notAuditedLabel(status: 'not-supported' | 'not-tried'): string {
  return status === 'not-supported' ? 'not supported' : 'not tried';
}

/**
 * A check on one revision: the most telling status of its outcomes there, or `n/a` where the check does not exist in
 * that revision.
 */
export type MatrixCell = Status | 'n/a';

/** One row of the revision matrix: a check, and its cell on each audited revision. */
export interface MatrixRow {
  id: string;
  title: string;
  area: string;
  cells: Partial<Record<Revision, MatrixCell>>;
}

/**
 * A `--revisions` audit: one run per revision the target accepts, each a whole RunReport, and the matrix of checks by
 * revision. The verdict and exit code are those of the worst run (3 when no revision could be audited).
 */
export interface RevisionsReport {
  tool: RunReport['tool'];
  target: RunReport['target'];
  startedAt: string;
  durationMs: number;
  verdict: NonNullable<RunReport['verdict']>;
  exitCode: number;
  failOn: 'must' | 'should';
  /** The revisions asked for, newest first, each audited or not supported. */
  revisions: RevisionEntry[];
  /** A row per selected check, in registry order. */
  matrix: MatrixRow[];
}

/** The runs of a --revisions audit, with the revision each was offered (a run that could not negotiate names none). */
export function auditedRuns(report: Pick<RevisionsReport, 'revisions'>): { revision: Revision; run: RunReport }[] {
  return report.revisions.flatMap((entry) =>
    entry.status === 'audited' ? [{ revision: entry.revision, run: entry.run }] : [],
  );
}
