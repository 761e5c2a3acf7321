import type { BaselineFile } from '../baseline/baseline.js';
import type { Negotiation } from '../protocol/negotiate.js';
import type { ToolWalk } from '../protocol/tool-walk.js';
import type { ToolLockFile } from '../lock/tool-lock.js';
import type { ReplayTarget } from '../property/replay.js';
import type { Scenario } from '../client-mode/scenarios.js';
import type { HostName } from '../model/hosts.js';

/** Everything an audit needs to know, built once from the command line (and config file) by the shell. */
export interface AuditConfig {
  /** This tool's version, for report.json. */
  toolVersion: string;
  timeoutMs: number;
  maxDurationMs: number;
  maxMessageBytes: number;
  /** Calls in flight at once: scripted calls to different tools, and generated calls. */
  concurrency: number;
  maxRps?: number;
  /** Tools that may be called besides read-only ones ('all': any). */
  allowTools: readonly string[] | 'all';
  skipTools: readonly string[];
  listChangedTrigger?: { name: string; arguments: Record<string, unknown> };
  property: { seed: number; runs: number; replay?: ReplayTarget; commandLine: string };
  /** Values the user gave (--header, --env) that must never reach a report. */
  secrets: readonly string[];
  /** --baseline: findings it lists are reported as known and do not fail the run. */
  baseline?: { file: string; data: BaselineFile };
  /** --lock: the tool set is compared with it. */
  lock?: { file: string; data: ToolLockFile };
  failOn: 'must' | 'should';
  failOnStale: boolean;
  /** When the command began (report start time and duration), and the --max-duration deadline (ms since epoch). */
  startedAt: Date;
  started: number;
  deadline: number;
  /** --hosts: each listed tool judged per host once the checks are done (report.hosts); never a check. */
  hosts?: { names: readonly HostName[]; failOn: readonly HostName[]; serverName?: string };
  /** --snapshot-out: given the audit's own tools/list walk once the checks are done, when a check made one. */
  onListing?: (walk: ToolWalk, negotiation: Negotiation) => void;
}

export interface ClientAuditConfig extends Pick<
  AuditConfig,
  | 'toolVersion'
  | 'timeoutMs'
  | 'maxDurationMs'
  | 'baseline'
  | 'failOn'
  | 'failOnStale'
  | 'startedAt'
  | 'started'
  | 'deadline'
  | 'secrets'
> {
  /** The client command line (split like a shell; the endpoint URL is appended over HTTP). */
  command: string;
  transport: 'http' | 'stdio';
  scenarios: readonly Scenario[];
  /** stdio: the command line that starts the scripted server with the given session folder. */
  serverCommand(sessionDir: string): string;
}
