/**
 * Host compatibility in report.json (`hosts`): per host, per listed tool, `works`, `degraded` (the host rewrites or
 * drops part of it) or `blocked` (the host refuses it), with the rules that decided it. A separate axis from the
 * checks: it adds nothing to `checks`, and changes the exit code only with --fail-on-host.
 */

export const HOST_NAMES = ['claude', 'openai', 'gemini', 'cursor', 'vscode'] as const;
export type HostName = (typeof HOST_NAMES)[number];

export function isHostName(value: string): value is HostName {
  return (HOST_NAMES as readonly string[]).includes(value);
}

export type HostVerdict = 'works' | 'degraded' | 'blocked';

/**
 * Where a rule was read. `code`: the host's open-source code, quoted as written (a comment or a statement), not prose.
 */
export interface RuleSource {
  url: string;
  kind: 'documentation' | 'api-reference' | 'changelog' | 'code';
  /**
   * The exact words read at `url`; where they run over several lines (a wrapped comment, code), the line breaks and
   * indents are one space.
   */
  quote: string;
  /** The day it was read (YYYY-MM-DD). */
  read: string;
}

export interface HostRuleRecord {
  /** `host.<host>.<slug>`: also the SARIF rule id. */
  id: string;
  host: HostName;
  effect: Exclude<HostVerdict, 'works'>;
  title: string;
  sources: RuleSource[];
}

export interface HostFinding {
  rule: string;
  effect: Exclude<HostVerdict, 'works'>;
  message: string;
  /** The smallest change that makes the rule pass. */
  fix: string;
}

export interface HostToolResult {
  tool: string;
  verdict: HostVerdict;
  findings: HostFinding[];
  /**
   * The inputSchema rewritten so that the host's schema rules pass, every declared property kept and still optional
   * where it was (as nullable), where that is mechanical.
   */
  rewrittenSchema?: unknown;
}

export interface HostResult {
  host: HostName;
  label: string;
  counts: Record<HostVerdict, number>;
  /** Every listed tool, in listing order. */
  tools: HostToolResult[];
  /** Limits heard of for this host that no primary source states: not judged. */
  notSourced: string[];
}

export interface HostsReport {
  /**
   * The server's name in the host's config, which hosts put in front of tool names (--server-name, else the server's
   * own name).
   */
  serverName: string;
  serverNameFrom: 'option' | 'server-info' | 'default';
  /** --fail-on-host: the hosts whose `blocked` tools count toward the exit code. */
  failOnHost: HostName[];
  /** False when the listing was cut short (the verdicts cover the tools seen). */
  listingComplete: boolean;
  hosts: HostResult[];
  /** The rules of the hosts judged, with their sources. */
  rules: HostRuleRecord[];
}

/** The hosts of --fail-on-host with a blocked tool. */
export function hostsFailing(hosts: HostsReport | undefined): HostName[] {
  if (!hosts) return [];
  return hosts.hosts.filter((h) => hosts.failOnHost.includes(h.host) && h.counts.blocked > 0).map((h) => h.host);
}
