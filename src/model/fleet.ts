import type { Status } from './check.js';
import type { RunReport } from './report.js';
import type { Revision } from '../core/revision.js';
import type { AuditDepth } from './depth.js';

export type { AuditDepth } from './depth.js';

/**
 * A fleet: the servers of one or more host configuration files (Claude Desktop, Claude Code, Cursor, VS Code), each
 * audited as a single audit would be. The contract between reading the files (src/fleet/config/) and running them.
 */

/** One server entry as a host file declares it, its placeholders resolved where the environment allows. */
export interface FleetEntry {
  /** The key of the entry in its file's map (`mcpServers` or `servers`). */
  name: string;
  /** The file it came from, as given or found. */
  source: string;
  /** stdio (command), http (Streamable HTTP url) or sse (the deprecated HTTP+SSE url). */
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  /** Values may be secrets: never written into a report. */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** Values may be secrets: never written into a report. */
  headers?: Record<string, string>;
  /** The entry is marked disabled in its file: listed, not audited. */
  disabled?: boolean;
  /** Placeholders (`${input:…}`, `${env:…}`, `${NAME}`) the environment could not resolve: the entry is not audited. */
  missingSecrets?: string[];
  /**
   * Why the entry cannot be audited as written (no command and no url, a malformed field): one line; its outcome is
   * `invalid-entry`.
   */
  invalid?: string;
}

/** What became of one server, each with one line of why. */
export type FleetOutcome =
  | 'conformant'
  | 'failing'
  | 'warnings'
  | 'could-not-start'
  | 'unreachable'
  | 'needs-secret'
  | 'timed-out'
  | 'invalid-entry'
  | 'skipped';

/** The outcomes about conformance; the others are about availability and count only with --fail-on-unavailable. */
export const CONFORMANCE_OUTCOMES: readonly FleetOutcome[] = ['conformant', 'failing', 'warnings'];

/** The outcomes in the order the summary counts them and the reports list them. */
export const OUTCOME_ORDER: readonly FleetOutcome[] = [
  'conformant',
  'warnings',
  'failing',
  'could-not-start',
  'unreachable',
  'needs-secret',
  'timed-out',
  'invalid-entry',
  'skipped',
];

/** Outcomes that say the server could not be audited (count toward the exit code only with --fail-on-unavailable). */
export function isUnavailable(outcome: FleetOutcome): boolean {
  return !CONFORMANCE_OUTCOMES.includes(outcome) && outcome !== 'skipped';
}

/** One server of the fleet: its outcome with one line of why, and, when it was audited, its own report. */
export interface FleetServerResult {
  name: string;
  source: string;
  transport: FleetEntry['transport'];
  outcome: FleetOutcome;
  /** One line: why this outcome (the first failing check, the start-up error and a PATH hint, the missing secret…). */
  why: string;
  /** The revision the server agreed; absent when it was never reached. */
  protocolVersion?: Revision | null;
  summary?: Record<Status, number>;
  depth?: AuditDepth;
  durationMs: number;
  /** Its own report.json, relative to the fleet's output directory. */
  reportFile?: string;
  /** The server's own report (scrubbed, as report.json holds it); absent when it was not audited. */
  report?: RunReport;
  /** The first lines of its stderr when it could not start (scrubbed). */
  stderr?: string[];
}

/** A finding only a fleet can see (two servers serving one tool name, a description naming another server's tool). */
export interface FleetFinding {
  id: string;
  status: Extract<Status, 'warn'>;
  message: string;
  servers: string[];
  tools: string[];
}

/**
 * --lock: each server's tools compared with its part of a fleet lock (a changed server is failing); --lock-write: the
 * lock written from each server's complete listing.
 */
export type FleetLockOutcome =
  | {
      mode: 'compare';
      file: string;
      /** Servers whose tools were added, removed or changed since the lock (their own report's `lock` says how). */
      changed: string[];
      /** Servers the lock holds that no host file declares any more: their tools are gone. */
      removed: string[];
    }
  | {
      mode: 'write';
      file: string;
      /** The servers written into the lock. */
      locked: string[];
      /** Servers audited, or to be, whose complete listing the audit did not get: left out of the lock. */
      notLocked: string[];
    };

/** The contract of fleet.json (data/report.schema.json, `fleet`). */
export interface FleetReport {
  tool: RunReport['tool'];
  startedAt: string;
  durationMs: number;
  /** The host files read, in order. */
  files: string[];
  /** `--shard i/n`: this report holds the i-th of n slices of the fleet. */
  shard?: { index: number; count: number };
  summary: Record<FleetOutcome, number>;
  servers: FleetServerResult[];
  findings: FleetFinding[];
  lock?: FleetLockOutcome;
  failOn: 'must' | 'should';
  failOnUnavailable: boolean;
  /** fleet --sandbox: every stdio server ran in a sandbox of its own; a server reached by URL kept safe mode. */
  sandboxed?: true;
  exitCode: number;
}
