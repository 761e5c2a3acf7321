import type { FleetEntry, FleetOutcome } from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';
import { EXIT } from '../../model/exit-codes.js';
import { hostsFailing } from '../../model/hosts.js';
import { startHint } from '../../model/start-hint.js';
import { describeLockChange } from '../../lock/tool-lock.js';
import { inputVariable } from '../config/placeholders.js';

/** What became of one server's audit process. */
export interface AuditRun {
  /** Its exit code; null when it was killed. */
  exitCode: number | null;
  /** It outlived its budget and margin and was stopped. */
  killed: boolean;
  /** Its report.json, when it wrote one. */
  report?: RunReport;
  /** The first lines it wrote to stderr. */
  stderr: string[];
  budgetMs: number;
}

export interface Classified {
  outcome: FleetOutcome;
  why: string;
  /** The target's own stderr lines, when it could not start. */
  stderr?: string[];
}

/** Network errors of a URL that refuses connections or does not resolve. */
const NETWORK_FAILURE =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET)\b|fetch failed/;
const FIRST_FAILS = 3;

/**
 * The outcome of an entry that is not audited at all, or undefined when it is to be audited. A disabled entry, or one
 * of another shard, is skipped (the shard that holds it reports it); an entry that cannot be audited as written is an
 * invalid entry, which, like a missing secret, counts as unavailable.
 */
export function notAudited(
  entry: FleetEntry,
  inShard: boolean,
  shard?: { index: number; count: number },
): Classified | undefined {
  if (entry.disabled) return { outcome: 'skipped', why: 'disabled in its file' };
  if (!inShard) return { outcome: 'skipped', why: `in another shard than ${shard!.index}/${shard!.count}` };
  if (entry.invalid !== undefined) return { outcome: 'invalid-entry', why: entry.invalid };
  if (entry.missingSecrets && entry.missingSecrets.length > 0) {
    return {
      outcome: 'needs-secret',
      why:
        `needs ${entry.missingSecrets.map(secretName).join(', ')}: not set in the environment, so the server was ` +
        `not started`,
    };
  }
  return undefined;
}

/**
 * A missing placeholder as the user fills it: `${input:api-key}` by the variable MCP_INPUT_API_KEY. (Not quoted as
 * written: an env value left unresolved is scrubbed from the report as a secret.)
 */
function secretName(missing: string): string {
  return missing.startsWith('input:') ? `${inputVariable(missing.slice(6))} (the input ${missing.slice(6)})` : missing;
}

/**
 * The outcome of an audited server, from its report where it wrote one: a fail proven is `failing` whatever happened
 * after; a budget that ran out is `timed-out`; an audit that never agreed a revision could not start (a URL that
 * refuses or does not resolve is unreachable); one that lost the target halfway is unreachable.
 */
export function classify(entry: FleetEntry, run: AuditRun): Classified {
  const report = run.report;
  if (run.killed)
    return {
      outcome: 'timed-out',
      why: `still running ${seconds(run.budgetMs)} after its --max-duration budget began (margin included): stopped`,
    };
  if (!report) {
    const first = run.stderr.find((line) => line.trim() !== '') ?? `exited with code ${run.exitCode} and no report`;
    // A usage error of the audit comes from the entry itself (a malformed URL, header or env name).
    if (run.exitCode === EXIT.usage)
      return { outcome: 'invalid-entry', why: first.replace(/^mcp-tools-conformance: /, '') };
    return {
      outcome: 'could-not-start',
      why: `the audit ended without a report: ${first.replace(/^mcp-tools-conformance: /, '')}`,
      stderr: run.stderr,
    };
  }
  const fails = report.checks.filter((c) => c.status === 'fail');
  // --lock: a tool added, removed or changed since the lock fails the server, as it fails a single audit.
  const lockChange =
    report.lock?.status === 'changed'
      ? `its tools differ from the lock: ${describeLockChange(report.lock)}`
      : undefined;
  const blockedOn = hostsFailing(report.hosts);
  // --fail-on-host: a tool one of those hosts refuses fails the server, as it fails a single audit.
  const blocked = blockedOn.length > 0 ? `a tool is blocked on ${blockedOn.join(', ')} (--fail-on-host)` : undefined;
  if (fails.length > 0) {
    const ids = [...new Set(fails.map((c) => c.id))];
    const shown =
      ids.slice(0, FIRST_FAILS).join(', ') + (ids.length > FIRST_FAILS ? ` and ${ids.length - FIRST_FAILS} more` : '');
    const after = report.aborted
      ? `; then ${report.aborted.reason}`
      : report.cutShort
        ? `; then ${report.cutShort.reason}`
        : '';
    return {
      outcome: 'failing',
      why:
        `${fails.length} fail${fails.length === 1 ? '' : 's'}: ${shown}${after}` +
        `${lockChange ? `; ${lockChange}` : ''}${blocked ? `; ${blocked}` : ''}`,
    };
  }
  if (lockChange || blocked) return { outcome: 'failing', why: [lockChange, blocked].filter(Boolean).join('; ') };
  if (report.cutShort) return { outcome: 'timed-out', why: report.cutShort.reason };
  // The audit closes the target when its budget has run out: what it then reports lost is the budget's doing.
  if (report.aborted && report.durationMs >= report.options.maxDurationMs) {
    return {
      outcome: 'timed-out',
      why:
        `its --max-duration budget of ${report.options.maxDurationMs} ms ran out (` +
        `${report.aborted.reason.replace(/^the target could not be audited: /, '')})`,
    };
  }
  if (report.aborted) {
    const reason = report.aborted.reason
      .replace(/ \(stderr: [^]*\)$/, '')
      .replace(/^the target could not be audited: /, '');
    const stderr = report.aborted.targetStderr;
    if (report.wire.protocolVersion === null) {
      if (entry.transport !== 'stdio' && NETWORK_FAILURE.test(reason)) return { outcome: 'unreachable', why: reason };
      const hint = startHint(reason);
      return { outcome: 'could-not-start', why: hint ? `${reason} (${hint})` : reason, ...(stderr ? { stderr } : {}) };
    }
    return { outcome: 'unreachable', why: reason, ...(stderr ? { stderr } : {}) };
  }
  const errors = report.checks.filter((c) => c.status === 'error');
  const warns = report.summary.warn;
  if (errors.length > 0) {
    // Our own fault (a check that threw): the audit is incomplete, so the server is not called conformant.
    return {
      outcome: 'warnings',
      why: `${errors.length} check(s) could not run: ${errors[0]!.message}${warns > 0 ? `; ${warns} warning(s)` : ''}`,
    };
  }
  if (warns > 0) {
    const ids = [...new Set(report.checks.filter((c) => c.status === 'warn').map((c) => c.id))];
    return {
      outcome: 'warnings',
      why:
        `no fail; ${warns} warning${warns === 1 ? '' : 's'}: ${ids.slice(0, FIRST_FAILS).join(', ')}` +
        `${ids.length > FIRST_FAILS ? ` and ${ids.length - FIRST_FAILS} more` : ''}`,
    };
  }
  return { outcome: 'conformant', why: `no fail and no warning on ${report.wire.protocolVersion}` };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
