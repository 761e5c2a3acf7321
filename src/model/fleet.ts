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
  /** Why the entry cannot be audited as written (no command and no url, a malformed field): one line. */
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
  | 'skipped';

/** The outcomes about conformance; the others are about availability and count only with --fail-on-unavailable. */
export const CONFORMANCE_OUTCOMES: readonly FleetOutcome[] = ['conformant', 'failing', 'warnings'];
